/**
 * One WATCH of a collection (the resource's path, e.g. /api/v1/nodes) from a resourceVersion: parses each
 * line, trims the object at once with the resource's trim (the raw object is dropped right there), advances the resourceVersion (bookmarks too) and reports how the watch
 * ended. A stall timer aborts a watch that sends no complete line for stallTimeoutMs (bytes of an unfinished
 * line and blank lines do not count, so a trickle of bytes cannot hold a dead watch open).
 */
import { isObj } from '../../common/json-guards.ts';
import type { Clock } from './clock.ts';
import type { ContextClient, StreamHandle } from './context-client.ts';
import { errorFromResponse } from './error-classify.ts';
import { KubeError } from './errors.ts';
import type { WatchedResource } from './watched-resource.ts';

/** Real resourceVersions are decimal etcd revisions; anything longer is not one. */
export const MAX_RESOURCE_VERSION = 64;

export type WatchChange<T> = { type: 'upsert'; object: T } | { type: 'delete'; name: string };

/** ended: the stream finished (cleanly or cut off) after lasting a while; expired: 410, relist. */
export type WatchOutcome = 'ended' | 'expired' | 'stalled' | 'stopped';

export interface WatchStreamParams<T> {
  client: ContextClient;
  /** The collection watched and the words for it; trim refuses an object by returning null (not reported). */
  resource: Pick<WatchedResource<T>, 'path' | 'plural' | 'trim' | 'fieldSelector' | 'keyOfMeta'>;
  clock: Clock;
  resourceVersion: string;
  timeoutSeconds: number;
  stallTimeoutMs: number;
  onOpen: () => void;
  /** A real event or a bookmark arrived (what tells a working server from one that only opens watches). */
  onProgress: () => void;
  onChange: (c: WatchChange<T>) => void;
  onResourceVersion: (rv: string) => void;
}

export interface RunningWatch {
  done: Promise<{ outcome: WatchOutcome; lines: number; error: KubeError | null }>;
  stop(): void;
}

export function watchObjects<T>(p: WatchStreamParams<T>): RunningWatch {
  const what = `watching ${p.resource.plural}`;
  let handle: StreamHandle | null = null;
  let stall: unknown = null;
  let lines = 0;
  let finish: (outcome: WatchOutcome, error?: KubeError | null) => void = () => {};
  let fail: (e: unknown) => void = () => {};
  let over = false;
  const done = new Promise<{ outcome: WatchOutcome; lines: number; error: KubeError | null }>(
    (resolve, reject) => {
      finish = (outcome, error = null) => {
        if (over) return;
        over = true;
        p.clock.clearTimeout(stall);
        handle?.abort();
        resolve({ outcome, lines, error });
      };
      fail = (e) => {
        if (over) return;
        over = true;
        p.clock.clearTimeout(stall);
        handle?.abort();
        reject(e);
      };
    },
  );
  const armStall = () => {
    p.clock.clearTimeout(stall);
    stall = p.clock.setTimeout(() => finish('stalled'), p.stallTimeoutMs);
  };
  const onLine = (line: string) => {
    if (over) return;
    lines++;
    armStall();
    try {
      readEvent(line);
    } catch (err) {
      // A consumer that throws must not become an uncaught exception in the socket's data handler.
      fail(err);
    }
  };
  const readEvent = (line: string) => {
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      return fail(
        new KubeError('protocol', `${new URL(p.client.server).host} sent a watch event that is not JSON.`),
      );
    }
    const type = isObj(ev) ? ev.type : null;
    const obj = isObj(ev) && isObj(ev.object) ? ev.object : null;
    if (type === 'ERROR') {
      const code = obj && typeof obj.code === 'number' ? obj.code : 500;
      if (code === 410) return finish('expired');
      return fail(errorFromResponse(code, JSON.stringify(obj ?? {}), {}, what));
    }
    const meta = obj && isObj(obj.metadata) ? obj.metadata : null;
    const rv = meta && typeof meta.resourceVersion === 'string' ? meta.resourceVersion : null;
    if (type === 'ADDED' || type === 'MODIFIED') {
      const object = p.resource.trim(obj);
      if (object !== null) p.onChange({ type: 'upsert', object });
    } else if (type === 'DELETED') {
      const key = meta === null ? null : p.resource.keyOfMeta ? p.resource.keyOfMeta(meta) : meta.name;
      if (typeof key === 'string') p.onChange({ type: 'delete', name: key });
    } else if (type !== 'BOOKMARK') {
      return fail(
        new KubeError('protocol', `${new URL(p.client.server).host} sent a watch event of an unknown type.`),
      );
    }
    // A resourceVersion goes into the next request line: a hostile one is not carried along.
    if (rv && rv.length <= MAX_RESOURCE_VERSION) p.onResourceVersion(rv);
    if (!over) p.onProgress();
  };
  const q = new URLSearchParams({
    watch: '1',
    resourceVersion: p.resourceVersion,
    allowWatchBookmarks: 'true',
    timeoutSeconds: String(p.timeoutSeconds),
  });
  if (p.resource.fieldSelector) q.set('fieldSelector', p.resource.fieldSelector);
  p.client
    .stream(
      `${p.resource.path}?${q}`,
      {
        onLine,
        onEnd: (err) => (err ? finish('ended', err) : finish('ended')),
      },
      what,
    )
    .then((h) => {
      handle = h;
      if (over) return h.abort();
      armStall();
      p.onOpen();
    }, fail);
  return { done, stop: () => finish('stopped') };
}
