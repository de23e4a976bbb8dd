/** The memory of each node's last GPU labels: kept across label loss, bounded by known nodes. */
import { describe, expect, it } from 'vitest';
import type { LastSeenLabels } from '../../common/inventory.ts';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { forgetLabels, rememberAllLabels, rememberLabels, retainLabels } from './last-seen.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const node = (name: string, labels: Record<string, string> = {}): NodeFacts => {
  const f = trimNode(rawNode({ name, labels }));
  if (f === null) throw new Error('fixture did not trim');
  return f;
};
const RTX = 'NVIDIA-GeForce-RTX-4070-Laptop-GPU';
const empty: ReadonlyMap<string, LastSeenLabels> = new Map();

describe('last-seen labels', () => {
  it('remembers labels, keeps them when the node loses them, and returns the same map when unchanged', () => {
    const m1 = rememberLabels(empty, node('nuc1', gfdLabels(RTX, 1, 8188)));
    expect(m1.get('nuc1')).toEqual({ product: RTX, count: 1, memory: 8188 });
    expect(rememberLabels(m1, node('nuc1', gfdLabels(RTX, 1, 8188)))).toBe(m1);
    const unlabeled = node('nuc1', { 'nvidia.com/gpu.workload.config': 'vm-passthrough' });
    expect(rememberLabels(m1, unlabeled)).toBe(m1);
    const m2 = rememberLabels(m1, node('nuc1', gfdLabels(RTX, 2, 8188)));
    expect(m2).not.toBe(m1);
    expect(m2.get('nuc1')?.count).toBe(2);
    expect(m1.get('nuc1')?.count).toBe(1);
  });

  it.each<[string, Record<string, string>]>([
    ['a CPU node', {}],
    ['a node whose only GPU label is count 0', { 'nvidia.com/gpu.count': '0' }],
    ['a node with a malformed count and no product', { 'nvidia.com/gpu.count': 'abc' }],
  ])('does not remember %s', (_, labels) => {
    expect(rememberLabels(empty, node('n', labels))).toBe(empty);
  });

  it('remembers a batch with a single copy and ignores unchanged nodes', () => {
    const batch = [node('a', gfdLabels(RTX, 1, 8188)), node('b'), node('c', gfdLabels('Tesla-T4', 4, 15360))];
    const m = rememberAllLabels(empty, batch);
    expect([...m.keys()]).toEqual(['a', 'c']);
    expect(rememberAllLabels(m, batch)).toBe(m);
  });

  it('forgets deleted nodes and retains only known ones', () => {
    const m = rememberAllLabels(empty, [
      node('a', gfdLabels(RTX, 1, 8188)),
      node('b', gfdLabels(RTX, 1, 8188)),
    ]);
    expect(forgetLabels(m, 'zzz')).toBe(m);
    expect([...forgetLabels(m, 'a').keys()]).toEqual(['b']);
    expect(retainLabels(m, new Set(['a', 'b', 'c']))).toBe(m);
    expect([...retainLabels(m, new Set(['b'])).keys()]).toEqual(['b']);
    expect(m.size).toBe(2);
  });
});

describe('last-seen labels are shared per kind of node (bench row 3)', () => {
  it('same labels → one frozen object; different → not', () => {
    const seen = rememberAllLabels(empty, [
      node('a', gfdLabels(RTX, 1, 8188)),
      node('b', gfdLabels(RTX, 1, 8188)),
      node('c', gfdLabels(RTX, 2, 8188)),
    ]);
    expect(seen.get('b')).toBe(seen.get('a'));
    expect(seen.get('c')).not.toBe(seen.get('a'));
    expect(seen.get('c')?.count).toBe(2);
    expect(() => {
      (seen.get('a') as { count: number }).count = 3;
    }).toThrow(TypeError);
  });
});
