import { describe, expect, it } from 'vitest';
import { diffInventory, type NodeState, stateOf } from './derive.ts';
import { inventory, node, notReady } from './timeline.testkit.ts';

const states = (...nodes: ReturnType<typeof node>[]) =>
  new Map<string, NodeState>(nodes.map((n) => [n.name, stateOf(n)]));

describe('diffInventory', () => {
  it('records the states of a cluster seen for the first time, and changes only for nodes already down', () => {
    const d = diffInventory(new Map(), inventory([node({ name: 'a' }), notReady('b')]), 1);
    expect(d.changes).toEqual([
      {
        node: 'b',
        at: 1,
        kind: 'ready',
        from: 'Ready',
        to: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
    ]);
    expect([...d.put.keys()]).toEqual(['a', 'b']);
  });

  it('dates an outage under way at the first look by its Ready condition, never after the look', () => {
    const at = Date.parse('2026-12-07T01:04:00Z');
    const since = (s: string | null) => ({ ...notReady('b'), not_ready_since: s });
    const first = (s: string | null) => diffInventory(new Map(), inventory([since(s)]), at).changes[0]?.at;
    expect(first('2026-12-06T22:02:07Z')).toBe(Date.parse('2026-12-06T22:02:07Z'));
    expect(first(null)).toBe(at);
    expect(first('not a time')).toBe(at);
    expect(first('2026-12-07T02:00:00Z')).toBe(at);
    // Down for longer than the timeline keeps: dated no earlier than the caller allows.
    const earliest = at - 86_400_000;
    const old = diffInventory(new Map(), inventory([since('2026-10-01T00:00:00Z')]), at, undefined, earliest);
    expect(old.changes[0]?.at).toBe(earliest);
  });

  it('records a readiness transition with its reason and message, and nothing for unchanged nodes', () => {
    const d = diffInventory(
      states(node({ name: 'a' }), node({ name: 'b' })),
      inventory([notReady('a'), node({ name: 'b' })]),
      5,
    );
    expect(d.changes).toEqual([
      {
        node: 'a',
        at: 5,
        kind: 'ready',
        from: 'Ready',
        to: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      },
    ]);
    expect([...d.put.keys()]).toEqual(['a']);
  });

  it('records GPUs withdrawn (allocatable below capacity) and GPU labels gone', () => {
    const d = diffInventory(
      states(node({ name: 'a' }), node({ name: 'b' })),
      inventory([node({ name: 'a', allocatable_gpus: 2 }), node({ name: 'b', product: null, count: 0 })]),
      5,
    );
    expect(d.changes.map((c) => [c.node, c.kind, c.from, c.to])).toEqual([
      ['a', 'gpus', '4/4', '2/4'],
      ['b', 'labels', '4', 'gone'],
    ]);
  });

  it('records a node that left, and one that joined', () => {
    const d = diffInventory(states(node({ name: 'a' })), inventory([node({ name: 'c' })]), 5);
    expect(d.changes.map((c) => [c.node, c.from, c.to])).toEqual([
      ['c', 'absent', 'Ready'],
      ['a', 'Ready', 'absent'],
    ]);
    expect(d.removed).toEqual(['a']);
  });

  it('does not take nodes left out of a compacted controller inventory as gone', () => {
    const inv = { ...inventory([node({ name: 'c' })]), nodes_omitted: 1 };
    expect(diffInventory(states(node({ name: 'a' }), node({ name: 'c' })), inv, 5).removed).toEqual([]);
  });
});
