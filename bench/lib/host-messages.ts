/**
 * Row 4c reads the engine host's messages straight off its utility process, beside the shell: the tray's
 * model (to know when the sync is done) and the host's own figures.
 */
import { Value } from '@sinclair/typebox/value';
import { HOST_MESSAGE_SCHEMA, type HostMessage, type HostStats } from '../../common/host-protocol.ts';
import type { UtilityProcessDouble } from '../../test/electron/electron-double.ts';

export type HostFigures = HostStats;
type TrayMessage = Extract<HostMessage, { type: 'tray' }>;
type StatsMessage = Extract<HostMessage, { type: 'stats' }>;

/** The type field first, so the multi-megabyte pushes cost this process no second schema check. */
const isOfType = (m: unknown, type: HostMessage['type']): m is HostMessage =>
  typeof m === 'object' &&
  m !== null &&
  Reflect.get(m, 'type') === type &&
  Value.Check(HOST_MESSAGE_SCHEMA, m);

export const isTrayMessage = (m: unknown): m is TrayMessage => isOfType(m, 'tray');

/** Ids far above the shell's own (it counts from 1), so its client ignores our answers. */
let nextId = 2 ** 40;
const STATS_WAIT_MS = 10_000;

/** Asks the host for its figures (its loop-delay histogram is reset at each read). */
export function hostStats(host: UtilityProcessDouble): Promise<HostFigures> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      host.off('message', listen);
      reject(new Error('bench 4c: the engine host did not answer a stats request'));
    }, STATS_WAIT_MS);
    const listen = (m: unknown) => {
      if (!isOfType(m, 'stats') || (m as StatsMessage).id !== id) return;
      clearTimeout(timer);
      host.off('message', listen);
      resolve((m as StatsMessage).stats);
    };
    host.on('message', listen);
    host.postMessage({ type: 'stats', id });
  });
}

/** How long the shell's listeners took over one kind of host message, in all and at most. */
export interface Handling {
  type: string;
  count: number;
  totalMs: number;
  maxMs: number;
}

/**
 * Times every 'message' event of a utility process from its emit to the return of its last listener: the
 * shell's own handling of each host message (reading the bytes off the channel comes before and is not
 * in it). Keyed by the message's `type` only when it is one of the protocol's.
 */
export class HandlingTimes {
  readonly #byType = new Map<string, Handling>();

  watch(up: UtilityProcessDouble): void {
    const emit = up.emit.bind(up);
    up.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'message') return emit(event, ...args);
      const m = args[0];
      const type = typeof m === 'object' && m !== null ? Reflect.get(m, 'type') : undefined;
      const key = typeof type === 'string' && KNOWN.has(type) ? type : '(other)';
      const t0 = performance.now();
      const heard = emit(event, ...args);
      const ms = performance.now() - t0;
      const h = this.#byType.get(key) ?? { type: key, count: 0, totalMs: 0, maxMs: 0 };
      h.count += 1;
      h.totalMs += ms;
      h.maxMs = Math.max(h.maxMs, ms);
      this.#byType.set(key, h);
      return heard;
    };
  }

  table(): Handling[] {
    return [...this.#byType.values()].sort((a, b) => b.maxMs - a.maxMs);
  }
}

const KNOWN = new Set<string>([
  'listening',
  'ready',
  'reply',
  'push',
  'tray',
  'notify',
  'shell',
  'log',
  'stats',
] satisfies HostMessage['type'][]);
