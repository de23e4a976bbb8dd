/**
 * Ready-drops from an inventory that omits nodes (the in-cluster controller's `nodes_omitted`: it lists
 * NotReady nodes first, then Ready ones as they fit): a node pushed out of the list is unknown, not
 * gone; a node left out before that now shows NotReady, with the ready count down, did drop.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { evaluate } from './policy.ts';
import { NO_SNOOZE } from './snooze.ts';
import { LEFT_THE_CLUSTER } from './text.ts';
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

function run(steps: GpuInventoryStatus[], with_ = rules): PolicyAlert[] {
  let state: PolicyState = INITIAL_POLICY_STATE;
  const alerts: PolicyAlert[] = [];
  steps.forEach((inventory, i) => {
    const r = evaluate(state, { at: i * 1000, context: 'big', reachable: true, inventory }, with_, NO_SNOOZE);
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

describe('a list of only the NotReady nodes (the controller above SCALE_GPU_NODES)', () => {
  // 5 GPU nodes; `inv(listed, total, ready)` lists only the NotReady ones, the rest are omitted.
  const kinds = (alerts: PolicyAlert[]) => alerts.map((a) => [a.kind, a.nodes, a.before, a.after]);

  it('a drop is one alert, and its recovery (the node leaves the list, the count goes up) is reported', () => {
    const alerts = run([inv({}, 5, 5), inv({ c: false }, 5, 4), inv({ c: false }, 5, 4), inv({}, 5, 5)]);
    expect(kinds(alerts)).toEqual([
      ['ready-drop', ['c'], 5, 4],
      ['recovered', ['c'], 4, 5],
    ]);
  });

  it('waits the hold-down, and a node back before it says nothing', () => {
    const held = { ...rules, holdDownMs: 1500 };
    const steps = [inv({}, 5, 5), inv({ c: false }, 5, 4), inv({}, 5, 5), inv({ c: false }, 5, 4)];
    expect(kinds(run(steps, held))).toEqual([]);
    const alerts = run([...steps, inv({ c: false }, 5, 4), inv({ c: false }, 5, 4)], held);
    expect(kinds(alerts)).toEqual([['ready-drop', ['c'], 5, 4]]);
  });

  it('a node that drops again after recovering is a second drop', () => {
    const alerts = run([
      inv({}, 5, 5),
      inv({ c: false }, 5, 4),
      inv({}, 5, 5),
      inv({}, 5, 5),
      inv({ c: false }, 5, 4),
    ]);
    expect(alerts.map((a) => a.kind)).toEqual(['ready-drop', 'recovered', 'ready-drop']);
  });

  it('a NotReady node deleted from the cluster (the total falls) left the cluster', () => {
    const held = { ...rules, holdDownMs: 1500 };
    const alerts = run(
      [inv({}, 5, 5), inv({ d: false }, 5, 4), inv({}, 4, 4), inv({}, 4, 4), inv({}, 4, 4)],
      held,
    );
    expect(kinds(alerts)).toEqual([['ready-drop', ['d'], 5, 4]]);
    expect(alerts[0]?.body).toContain(LEFT_THE_CLUSTER);
  });

  it('two nodes: one recovers while the other stays down, and recovers later', () => {
    const alerts = run([
      inv({}, 5, 5),
      inv({ a: false, b: false }, 5, 3),
      inv({ b: false }, 5, 4),
      inv({}, 5, 5),
    ]);
    expect(kinds(alerts)).toEqual([
      ['ready-drop', ['a', 'b'], 5, 3],
      ['recovered', ['a', 'b'], 3, 5],
    ]);
  });
});
