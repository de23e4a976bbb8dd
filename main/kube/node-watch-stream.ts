/**
 * One WATCH of /api/v1/nodes from a resourceVersion: parses each line, trims the node at once (the raw
 * object is dropped right there), advances the resourceVersion (bookmarks too) and reports how the watch
 * ended. A stall timer aborts a watch that sends no bytes at all for stallTimeoutMs.
 */
import type { NodeFacts } from '../inventory/node-facts.ts';
import type { Clock } from './clock.ts';
import type { ContextClient, StreamHandle } from './context-client.ts';
import { errorFromResponse } from './error-classify.ts';
import { KubeError } from './errors.ts';
import { isObj } from './kubeconfig-entries.ts';

export type WatchChange = { type: 'upsert'; node: NodeFacts } | { type: 'delete'; name: string };

/** ended: the stream finished (cleanly or cut off) after lasting a while; expired: 410, relist. */
export type WatchOutcome = 'ended' | 'expired' | 'stalled' | 'stopped';

export interface WatchStreamParams {
  client: ContextClient;
  clock: Clock;
  resourceVersion: string;
  timeoutSeconds: number;
  stallTimeoutMs: number;
  trim: (raw: unknown) => NodeFacts | null;
  onOpen: () => void;
  onChange: (c: WatchChange) => void;
  onResourceVersion: (rv: string) => void;
}

export interface RunningWatch {
  done: Promise<{ outcome: WatchOutcome; lines: number; error: KubeError | null }>;
  stop(): void;
}

export function watchNodes(p: WatchStreamParams): RunningWatch {
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
      return fail(errorFromResponse(code, JSON.stringify(obj ?? {}), {}, 'watching nodes'));
    }
    const meta = obj && isObj(obj.metadata) ? obj.metadata : null;
    const rv = meta && typeof meta.resourceVersion === 'string' ? meta.resourceVersion : null;
    if (type === 'ADDED' || type === 'MODIFIED') {
      const node = p.trim(obj);
      if (node) p.onChange({ type: 'upsert', node });
    } else if (type === 'DELETED') {
      if (meta && typeof meta.name === 'string') p.onChange({ type: 'delete', name: meta.name });
    }
    if (rv) p.onResourceVersion(rv);
  };
  const q = new URLSearchParams({
    watch: '1',
    resourceVersion: p.resourceVersion,
    allowWatchBookmarks: 'true',
    timeoutSeconds: String(p.timeoutSeconds),
  });
  p.client
    .stream(
      `/api/v1/nodes?${q}`,
      {
        onBytes: armStall,
        onLine,
        onEnd: (err) => (err ? finish('ended', err) : finish('ended')),
      },
      'watching nodes',
    )
    .then((h) => {
      handle = h;
      if (over) return h.abort();
      armStall();
      p.onOpen();
    }, fail);
  return { done, stop: () => finish('stopped') };
}
