/** Connection states of one monitored context, as the UI and CLI name them to the user. */

export type ConnectionPhase =
  | 'connecting'
  | 'live'
  | 'reconnecting'
  | 'unreachable'
  | 'unauthorized'
  | 'forbidden'
  | 'config-error';

export interface ConnectionState {
  phase: ConnectionPhase;
  /** One sentence for the user; null when there is nothing to add to the phase. */
  message: string | null;
  /** RFC 3339 time this phase began. */
  since: string;
  /** When the engine last had a live watch, if ever. */
  lastLiveAt: string | null;
  /** Failed attempts in a row (0 when live). */
  attempt: number;
  /** When the next attempt is due, while waiting to retry. */
  retryAt: string | null;
}

// The words for each phase are in the message catalogs (common/i18n/phase-keys.ts).
