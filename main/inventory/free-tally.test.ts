/**
 * The pod-by-pod tally against a full rebuild: over random sequences of pods added, replaced (bound,
 * completed, failed, re-requested), deleted and relisted, the figures built from the tally kept with each
 * change equal the figures built from all the pods at once, and each node's requests equal the plain sum
 * of its live pods' requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { freeFromTally } from './free-gpus.ts';
import { FreeTally, tallyOf } from './free-tally.ts';
import type { GpuPod } from './gpu-pod.ts';
import { type NodeFacts, trimNode } from './node-facts.ts';

const NODES = ['n0', 'n1', 'n2'];
const nodes: NodeFacts[] = NODES.map(
  (name) =>
    trimNode(
      rawNode({
        name,
        labels: gfdLabels('NVIDIA-A100-SXM4-80GB', 8, 81920),
        capacity: { 'nvidia.com/gpu': '8', 'nvidia.com/mig-1g.10gb': '4' },
      }),
    ) as NodeFacts,
);

const arbPod = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  namespace: fc.constantFrom('x', 'y'),
  node: fc.constantFrom('n0', 'n1', 'n2', 'gone', null),
  phase: fc.constantFrom('Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'),
  gpu: fc.integer({ min: 0, max: 5 }),
  mig: fc.integer({ min: 0, max: 3 }),
  message: fc.constantFrom(null, '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.'),
});

type PodSpec = typeof arbPod extends fc.Arbitrary<infer T> ? T : never;
type Op =
  | { op: 'put'; pod: PodSpec }
  | { op: 'delete'; name: string; namespace: string }
  | { op: 'complete'; name: string; namespace: string }
  | { op: 'relist' };

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: arbPod.map((pod) => ({ op: 'put' as const, pod })) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      name: arbPod.map((p) => p.name),
      namespace: fc.constantFrom('x', 'y'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('complete' as const),
      name: arbPod.map((p) => p.name),
      namespace: fc.constantFrom('x', 'y'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'relist' as const }) },
);

function gpuPod(s: PodSpec): GpuPod {
  const requests: Record<string, number> = {};
  if (s.gpu > 0) requests['nvidia.com/gpu'] = s.gpu;
  if (s.mig > 0 || s.gpu === 0) requests['nvidia.com/mig-1g.10gb'] = Math.max(1, s.mig);
  const pod: GpuPod = { namespace: s.namespace, name: s.name, node: s.node, phase: s.phase, requests };
  if (s.node === null) {
    pod.tolerations = [];
    pod.unscheduled = s.message === null ? null : { reason: 'Unschedulable', message: s.message };
  }
  return pod;
}

describe('FreeTally', () => {
  it('kept pod by pod, it gives the figures a full rebuild gives, after any sequence of changes', () => {
    fc.assert(
      fc.property(
        fc.array(arbOp, { maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (ops, ready) => {
          const shown: NodeFacts[] = nodes.map((n, i) =>
            ready[i] ? n : { ...n, ready: { ...n.ready, status: 'False' as const } },
          );
          const cache = new Map<string, GpuPod>();
          const tally = new FreeTally();
          for (const o of ops) {
            if (o.op === 'relist') {
              tally.reset(cache.entries());
              continue;
            }
            const key = o.op === 'put' ? `${o.pod.namespace}/${o.pod.name}` : `${o.namespace}/${o.name}`;
            const before = cache.get(key);
            if (o.op === 'put') cache.set(key, gpuPod(o.pod));
            else if (o.op === 'delete') cache.delete(key);
            else if (before !== undefined) cache.set(key, { ...before, phase: 'Succeeded' });
            tally.change(key, before, cache.get(key));
          }
          expect(freeFromTally(shown, tally)).toEqual(freeFromTally(shown, tallyOf(cache.values())));
          for (const n of NODES) {
            const sum: Record<string, number> = {};
            for (const p of cache.values())
              if (p.node === n && p.phase !== 'Succeeded' && p.phase !== 'Failed')
                for (const [r, v] of Object.entries(p.requests)) sum[r] = (sum[r] ?? 0) + v;
            expect(tally.requestedOn(n) ?? {}).toEqual(sum);
          }
          const pending = [...cache.values()].filter((p) => p.node === null && p.phase === 'Pending');
          expect(tally.pending.size).toBe(pending.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equal sums are one object; a node whose last pod goes has none', () => {
    const tally = new FreeTally();
    const a = gpuPod({
      name: 'a',
      namespace: 'x',
      node: 'n0',
      phase: 'Running',
      gpu: 1,
      mig: 0,
      message: null,
    });
    const b = gpuPod({
      name: 'b',
      namespace: 'x',
      node: 'n1',
      phase: 'Running',
      gpu: 2,
      mig: 0,
      message: null,
    });
    tally.change('x/a', undefined, a);
    const n0 = tally.requestedOn('n0');
    tally.change('x/b', undefined, b);
    expect(tally.requestedOn('n0')).toBe(n0);
    tally.change('x/a2', undefined, { ...a, name: 'a2', node: 'n2' });
    expect(tally.requestedOn('n2')).toBe(n0);
    expect(tally.requestedOn('n1')).toEqual({ 'nvidia.com/gpu': 2 });
    tally.change('x/b', b, undefined);
    expect(tally.requestedOn('n1')).toBeUndefined();
  });
});
