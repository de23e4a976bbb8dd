/**
 * Row 4c reads the engine host's messages straight off its utility process, beside the shell: the tray's
 * summary (to know when the sync is done without reading the tray's words) and the host's own figures.
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
