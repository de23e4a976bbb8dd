/** Connection states of one monitored context, as the UI and CLI name them to the user. */
import type { MessageKey } from './i18n/catalog-types.ts';

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
  /** One sentence for the user (English, the CLI's); null when there is nothing to add to the phase. */
  message: string | null;
  /**
   * The same sentence as a catalog key and its values, when it is one of ours, so the window words it
   * in the user's language; absent when the sentence has no key (it is then shown as `message`).
   */
  words?: Sentence;
  /** RFC 3339 time this phase began. */
  since: string;
  /** When the engine last had a live watch, if ever. */
  lastLiveAt: string | null;
  /** Failed attempts in a row (0 when live). */
  attempt: number;
  /** When the next attempt is due, while waiting to retry. */
  retryAt: string | null;
}

/** A failure sentence of ours (`kubeError.*`); outside text among the values is passed as written. */
export interface Sentence {
  key: Extract<MessageKey, `kubeError.${string}`>;
  vars: Readonly<Record<string, string | number>>;
}

// The words for each phase are in the message catalogs (common/i18n/phase-keys.ts).
