/**
 * The soak's ground truth: what each injected event must produce in the alert log, given the hold-down,
 * and the comparison with the alerts the engine actually raised.
 *
 * - blip: a node NotReady for well under the hold-down → no alert.
 * - outage: NotReady for well over the hold-down → one ready-drop naming it, then one recovered.
 * - flapper: three changes within a second or two (more than flapThreshold 2) → one flapping alert
 *   naming it and no ready-drop for it.
 * Nothing else is ever right: no unreachable, reachable or gpus-withdrawn alert on a healthy loopback sim.
 */
import type { AlertKind } from '../../common/alerts.ts';

export type EventKind = 'blip' | 'outage' | 'flapper';

export interface Injected {
  context: string;
  node: string;
  kind: EventKind;
  /** How long the node was NotReady in all (ms). */
  downMs: number;
}

export interface SeenAlert {
  context: string;
  kind: AlertKind;
  nodes: string[];
}

const EXPECTED: Record<EventKind, AlertKind[]> = {
  blip: [],
  outage: ['ready-drop', 'recovered'],
  flapper: ['flapping'],
};

export interface Verdict {
  ok: boolean;
  expected: number;
  seen: number;
  /** One line per difference: "c1 node-0042 (outage): expected ready-drop, recovered; got ready-drop". */
  mismatches: string[];
}

export function judge(events: readonly Injected[], alerts: readonly SeenAlert[]): Verdict {
  const key = (context: string, node: string) => `${context}\u0000${node}`;
  const got = new Map<string, AlertKind[]>();
  const mismatches: string[] = [];
  for (const a of alerts) {
    if (a.nodes.length === 0) {
      mismatches.push(`${a.context}: unexpected ${a.kind} alert`);
      continue;
    }
    for (const n of a.nodes) got.set(key(a.context, n), [...(got.get(key(a.context, n)) ?? []), a.kind]);
  }
  let expected = 0;
  for (const e of events) {
    const want = EXPECTED[e.kind];
    expected += want.length;
    const k = key(e.context, e.node);
    const have = got.get(k) ?? [];
    got.delete(k);
    if (have.join(',') !== want.join(','))
      mismatches.push(
        `${e.context} ${e.node} (${e.kind}, down ${e.downMs} ms): expected ${want.join(', ') || 'nothing'}; got ${have.join(', ') || 'nothing'}`,
      );
  }
  for (const [k, kinds] of got)
    mismatches.push(`${k.replace('\u0000', ' ')}: alerts for a node never flipped: ${kinds.join(', ')}`);
  return { ok: mismatches.length === 0, expected, seen: alerts.length, mismatches };
}
