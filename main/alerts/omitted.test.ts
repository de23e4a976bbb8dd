/**
 * Ready-drops from an inventory that omits nodes (the in-cluster controller's `nodes_omitted`: it lists
 * NotReady nodes first, then Ready ones as they fit): a node pushed out of the list is unknown, not
 * gone; a node left out before that now shows NotReady, with the ready count down, did drop.
 */
import { expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { evaluate } from './policy.ts';
import { NO_SNOOZE } from './snooze.ts';
import { INITIAL_POLICY_STATE, type PolicyAlert, type PolicyState } from './types.ts';

const rules = { ...DEFAULT_ALERT_RULES, holdDownMs: 0 };
/** `listed`: name → ready; `total` GPU nodes of which `ready` are Ready, the rest omitted. */
function inv(listed: Record<string, boolean>, total: number, ready: number): GpuInventoryStatus {
  const nodes = Object.entries(listed).map(([name, r]) => ({
    name,
    ready: r,
    product: null,
    count: 1,
    memory: null,
    workload: null,
  }));
  const omitted = total - nodes.length;
  return {
    observed_at: '2026-11-29T12:00:00Z',
    total_gpu_nodes: total,
    ready_gpu_nodes: ready,
    total_gpus: total,
    nodes,
    nodes_compacted: true,
    ...(omitted > 0 ? { nodes_omitted: omitted } : {}),
  };
}

function run(steps: GpuInventoryStatus[]): PolicyAlert[] {
  let state: PolicyState = INITIAL_POLICY_STATE;
  const alerts: PolicyAlert[] = [];
  steps.forEach((inventory, i) => {
    const r = evaluate(state, { at: i * 1000, context: 'big', reachable: true, inventory }, rules, NO_SNOOZE);
    state = r.state;
    alerts.push(...r.alerts);
  });
  return alerts;
}

it('a Ready node pushed out of the list by a NotReady one is not reported as gone', () => {
  // 5 GPU nodes, room for 3 entries: a, b, c listed Ready (d, e omitted); then x goes NotReady and c is pushed out.
  const alerts = run([inv({ a: true, b: true, c: true }, 5, 5), inv({ d: false, a: true, b: true }, 5, 4)]);
  expect(alerts.map((a) => [a.kind, a.nodes])).toEqual([['ready-drop', ['d']]]);
});

it('a node left out before that now shows NotReady is a drop (the ready count fell)', () => {
  const alerts = run([inv({ a: true, b: true, c: true }, 5, 5), inv({ e: false, a: true, b: true }, 5, 4)]);
  expect(alerts[0]).toMatchObject({ kind: 'ready-drop', nodes: ['e'], before: 5, after: 4 });
});

it('a complete list still reports a node that vanished as gone', () => {
  const alerts = run([inv({ a: true, b: true, c: true }, 3, 3), inv({ a: true, b: true }, 2, 2)]);
  expect(alerts.map((a) => [a.kind, a.nodes])).toEqual([['ready-drop', ['c']]]);
});
