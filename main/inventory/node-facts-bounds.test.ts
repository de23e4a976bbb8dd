/**
 * What the cache keeps from a hostile node is bounded in size, whatever the server sends: distinct huge
 * label values, taints, keys and messages neither grow the intern pool nor the kept NodeFacts (counted in
 * characters, not time).
 */
import { describe, expect, it } from 'vitest';
import { rawNode } from '../../test/fixtures/nodes.ts';
import { intern, internedChars, MAX_INTERN_LENGTH, MAX_POOL } from './intern.ts';
import { MAX_KEPT, MAX_TAINTS, type NodeFacts, trimNode } from './node-facts.ts';

const MB = 1 << 20;

/** Every character a NodeFacts holds in its strings (keys included). */
function charsOf(f: NodeFacts): number {
  let n = f.name.length + f.resourceVersion.length;
  for (const m of [f.labels, f.capacity, f.allocatable])
    for (const [k, v] of Object.entries(m)) n += k.length + v.length;
  n += (f.ready.reason?.length ?? 0) + (f.ready.message?.length ?? 0) + (f.ready.since?.length ?? 0);
  for (const t of f.taints) n += t.key.length + (t.value?.length ?? 0) + t.effect.length;
  return n;
}

describe('trimNode keeps a bounded amount of a hostile node', () => {
  it('distinct 1 MB label values do not grow the intern pool, and each kept node stays small', () => {
    const huge = 'v'.repeat(MB);
    const before = internedChars();
    let kept = 0;
    for (let i = 0; i < 200; i++) {
      // A distinct 1 MB value per node, per label the inventory reads (product, count, MIG, sharing…).
      const v = `${i}-${huge}`;
      const raw = rawNode({
        name: `n${i}`,
        ready: 'False',
        reason: v,
        message: v,
        since: v,
        labels: {
          'nvidia.com/gpu.product': v,
          'nvidia.com/gpu.count': v,
          'nvidia.com/gpu.sharing-strategy': v,
          'nvidia.com/mig-1g.5gb.count': v,
        },
        capacity: { 'nvidia.com/gpu': v },
        taints: [{ key: 'nvidia.com/gpu', value: v, effect: 'NoSchedule' }],
      });
      const f = trimNode(raw);
      expect(f).not.toBeNull();
      kept = Math.max(kept, charsOf(f as NodeFacts));
    }
    // A node's facts stay a few KB at most, not megabytes…
    expect(kept).toBeLessThan(4096);
    // …and the pool grew by short strings only, never by the huge ones.
    expect(internedChars() - before).toBeLessThan(200 * 16 * (MAX_INTERN_LENGTH + 1));
    expect(internedChars()).toBeLessThanOrEqual(MAX_POOL * MAX_INTERN_LENGTH);
  });

  it('the intern pool does not keep long strings (bounded by characters, not by count)', () => {
    const huge = 'w'.repeat(MB);
    const before = internedChars();
    for (let i = 0; i < 100; i++) expect(intern(`${i}${huge}`)).toHaveLength(MB + String(i).length);
    expect(internedChars()).toBe(before);
    expect(internedChars()).toBeLessThanOrEqual(MAX_POOL * MAX_INTERN_LENGTH);
  });

  it('a cut label value ends in an ellipsis so it cannot pass for a real one', () => {
    const f = trimNode(
      rawNode({ name: 'n', labels: { 'nvidia.com/gpu.product': `A100${'x'.repeat(100)}` } }),
    );
    const v = f?.labels['nvidia.com/gpu.product'] ?? '';
    expect(v).toHaveLength(64);
    expect(v.endsWith('…')).toBe(true);
  });

  it('caps the number of kept entries, taints and key lengths', () => {
    const labels: Record<string, string> = {};
    const capacity: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) {
      labels[`nvidia.com/mig-${i}g.${i}gb.count`] = '1';
      capacity[`nvidia.com/r${i}`] = '1';
    }
    labels[`nvidia.com/mig-${'p'.repeat(MB)}.count`] = '1';
    const taints = Array.from({ length: 5000 }, (_, i) => ({ key: `k${i}`, effect: 'NoSchedule' }));
    const f = trimNode(rawNode({ name: 'n', labels, capacity, taints })) as NodeFacts;
    expect(Object.keys(f.labels).length).toBeLessThanOrEqual(MAX_KEPT);
    expect(Object.keys(f.capacity).length).toBeLessThanOrEqual(MAX_KEPT);
    expect(f.taints.length).toBeLessThanOrEqual(MAX_TAINTS);
    expect(charsOf(f)).toBeLessThan(64 * 1024);
  });

  it('refuses a node whose name is longer than Kubernetes allows', () => {
    expect(trimNode(rawNode({ name: 'n'.repeat(254) }))).toBeNull();
    expect(trimNode(rawNode({ name: 'n'.repeat(253) }))?.name).toHaveLength(253);
  });

  it.each([
    ['an ESC sequence', 'gpu\u001b[2J1'],
    ['a newline', 'gpu1\nfake'],
    ['a bidi override', 'gpu\u202e1'],
    ['an upper-case letter', 'Gpu1'],
    ['a space', 'gpu 1'],
    ['a leading dash', '-gpu1'],
    ['a trailing dot', 'gpu1.'],
    ['an empty label', 'a..b'],
    ['an underscore', 'gpu_1'],
    ['a non-ASCII letter', 'gpü1'],
  ])('refuses a node whose name has %s (not a DNS-1123 subdomain)', (_what, name) => {
    expect(trimNode(rawNode({ name }))).toBeNull();
  });

  it.each(['a', '0', 'gpu-1', 'node-1.example.com', 'constructor', 'a-b.c-d.e'])(
    'accepts the DNS-1123 subdomain %s',
    (name) => {
      expect(trimNode(rawNode({ name }))?.name).toBe(name);
    },
  );
});
