/** The events and options of ListWatcher (list-watcher.ts). */
import type { ConnectionState } from '../../common/connection.ts';
import type { BackoffOptions } from './backoff.ts';
import type { Clock } from './clock.ts';
import type { ConnectionThresholds } from './connection-tracker.ts';

/**
 * What leaves a watcher: only trimmed objects (what the resource's trim kept), whole sets on (re)list, and
 * connection states.
 */
export type WatcherEvent<T> =
  | { type: 'replace'; objects: T[] }
  | { type: 'upsert'; object: T }
  | { type: 'delete'; name: string }
  | { type: 'connection'; state: ConnectionState }
  /** How many objects the server sent that were refused (the trim said null); sent on change. */
  | { type: 'refused'; count: number };

export interface ListWatcherOptions extends Partial<ConnectionThresholds> {
  clock?: Clock;
  random?: () => number;
  backoff?: Partial<BackoffOptions>;
  /** LIST page size (limit); default 100. */
  pageSize?: number;
  /** Ask for the next LIST page as soon as a page's head names its token (list-pages.ts); default off. */
  eagerNext?: boolean;
  /** Time allowed for each LIST page request. */
  listTimeoutMs?: number;
  /** Time allowed for a whole paged list (list-pages.ts LIST_DEADLINE_MS by default). */
  listDeadlineMs?: number;
  /** The server ends each watch after a random time in this range (seconds). */
  watchSeconds?: [number, number];
  /**
   * No complete line (bookmarks count) for this long: probe the server, then re-watch quietly if it answers
   * (a quiet cluster sends nothing at all). Bookmark interval (~60 s) + margin.
   */
  stallTimeoutMs?: number;
  /** Time allowed for the probe after a silent watch (a one-object list). */
  probeTimeoutMs?: number;
}

export function pickThresholds(o: ListWatcherOptions): Partial<ConnectionThresholds> {
  const t: Partial<ConnectionThresholds> = {};
  if (o.unreachableAfterAttempts !== undefined) t.unreachableAfterAttempts = o.unreachableAfterAttempts;
  if (o.unreachableAfterMs !== undefined) t.unreachableAfterMs = o.unreachableAfterMs;
  if (o.reconnectingAfterMs !== undefined) t.reconnectingAfterMs = o.reconnectingAfterMs;
  return t;
}
