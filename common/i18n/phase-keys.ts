/** The message of each connection phase, for every surface that names one (window, tray). */
import type { ConnectionPhase } from '../connection.ts';
import type { MessageKey } from './catalog-types.ts';

export const PHASE_KEYS: Readonly<Record<ConnectionPhase, MessageKey>> = {
  connecting: 'phase.connecting',
  live: 'phase.live',
  reconnecting: 'phase.reconnecting',
  unreachable: 'phase.unreachable',
  unauthorized: 'phase.unauthorized',
  forbidden: 'phase.forbidden',
  'config-error': 'phase.configError',
};
