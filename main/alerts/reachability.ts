/**
 * Which connection phases the alert policy counts as reachable. A watch that stalls or is cut shows as
 * "reconnecting" for a few seconds and then comes back: that is not an outage, so it neither counts
 * towards the unreachable alert nor drops a pending ready-drop's hold-down. Only "unreachable" (which
 * the connection tracker reports after its own threshold of failed attempts or time) and the phases
 * that need the user (credentials, permissions, configuration) do.
 */
import type { ConnectionPhase } from '../../common/connection.ts';

export function countsAsReachable(phase: ConnectionPhase): boolean {
  return phase === 'live' || phase === 'connecting' || phase === 'reconnecting';
}
