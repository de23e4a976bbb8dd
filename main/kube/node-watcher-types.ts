/** The events and options of NodeWatcher (node-watcher.ts). */
import type { ConnectionState } from '../../common/connection.ts';
import type { NodeFacts } from '../inventory/node-facts.ts';
import type { BackoffOptions } from './backoff.ts';
import type { Clock } from './clock.ts';
import type { ConnectionThresholds } from './connection-tracker.ts';

/** What leaves a watcher: only trimmed NodeFacts, whole sets on (re)list, and connection states. */
export type WatcherEvent =
  | { type: 'replace'; nodes: NodeFacts[] }
  | { type: 'upsert'; node: NodeFacts }
  | { type: 'delete'; name: string }
  | { type: 'connection'; state: ConnectionState }
  /** How many nodes the server sent that were refused (an invalid name, not an object); sent on change. */
  | { type: 'refused'; count: number };

export interface NodeWatcherOptions extends Partial<ConnectionThresholds> {
  clock?: Clock;
  random?: () => number;
  backoff?: Partial<BackoffOptions>;
  /** LIST page size (limit); default 100. */
  pageSize?: number;
  /** Time allowed for each LIST page request. */
  listTimeoutMs?: number;
  /** Time allowed for a whole paged list (node-list.ts LIST_DEADLINE_MS by default). */
  listDeadlineMs?: number;
  /** The server ends each watch after a random time in this range (seconds). */
  watchSeconds?: [number, number];
  /** No complete line (bookmarks count) for this long: abort and re-watch. Bookmark interval (~60 s) + margin. */
  stallTimeoutMs?: number;
  trim?: (raw: unknown) => NodeFacts | null;
}

export function pickThresholds(o: NodeWatcherOptions): Partial<ConnectionThresholds> {
  const t: Partial<ConnectionThresholds> = {};
  if (o.unreachableAfterAttempts !== undefined) t.unreachableAfterAttempts = o.unreachableAfterAttempts;
  if (o.unreachableAfterMs !== undefined) t.unreachableAfterMs = o.unreachableAfterMs;
  return t;
}
