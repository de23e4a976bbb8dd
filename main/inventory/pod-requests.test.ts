/** The scheduler's pod request rule, table-driven: app containers, sidecars, one-shot init containers, overhead, limits-only. */
import { describe, expect, it } from 'vitest';
import { type RawPodOptions, rawPod } from '../../test/fixtures/pods.ts';
import { gpuRequestsOfSpec } from './gpu-pod.ts';
import { podRequests } from './pod-requests.ts';

const G = 'nvidia.com/gpu';
const gpu = (n: number) => ({ limits: { [G]: String(n) }, requests: { [G]: String(n) } });
const sidecar = (n: number) => ({ ...gpu(n), restartPolicy: 'Always' });

const cases: { name: string; pod: Omit<RawPodOptions, 'name'>; expect: Record<string, number> }[] = [
  { name: 'one container', pod: { containers: [gpu(2)] }, expect: { [G]: 2 } },
  { name: 'app containers are summed', pod: { containers: [gpu(1), gpu(2)] }, expect: { [G]: 3 } },
  {
    name: 'a larger one-shot init container wins over the sum',
    pod: { containers: [gpu(1)], initContainers: [gpu(4)] },
    expect: { [G]: 4 },
  },
  {
    name: 'a smaller one-shot init container does not add',
    pod: { containers: [gpu(2), gpu(1)], initContainers: [gpu(2)] },
    expect: { [G]: 3 },
  },
  {
    name: 'init containers are not summed with each other (the largest counts)',
    pod: { containers: [], initContainers: [gpu(2), gpu(3), gpu(1)] },
    expect: { [G]: 3 },
  },
  {
    name: 'a sidecar is added to the app containers',
    pod: { containers: [gpu(1)], initContainers: [sidecar(1)] },
    expect: { [G]: 2 },
  },
  {
    name: 'a one-shot init after a sidecar runs beside it',
    pod: { containers: [gpu(1)], initContainers: [sidecar(1), gpu(2)] },
    // init moment: 2 + 1 sidecar = 3 > app 1 + sidecar 1 = 2
    expect: { [G]: 3 },
  },
  {
    name: 'a one-shot init before a sidecar does not run beside it',
    pod: { containers: [gpu(1)], initContainers: [gpu(2), sidecar(1)] },
    // init moments: 2, then 1 (the sidecar alone); app 1 + sidecar 1 = 2
    expect: { [G]: 2 },
  },
  {
    name: 'overhead is added on top',
    pod: { containers: [gpu(1)], overhead: { [G]: '1' } },
    expect: { [G]: 2 },
  },
  {
    name: 'a missing request is the limit (extended resources)',
    pod: { containers: [{ limits: { [G]: '2' } }] },
    expect: { [G]: 2 },
  },
  {
    name: 'a request wins over its limit when both are there',
    pod: { containers: [{ limits: { [G]: '2' }, requests: { [G]: '1' } }] },
    expect: { [G]: 1 },
  },
  {
    name: 'several GPU resources are kept apart; cpu and NICs are not GPU resources',
    pod: {
      containers: [
        { limits: { 'nvidia.com/mig-1g.5gb': '2', cpu: '2', 'nvidia.com/rdma_shared_device_a': '1' } },
        { limits: { 'nvidia.com/gpu.shared': '1' } },
      ],
    },
    expect: { 'nvidia.com/gpu.shared': 1, 'nvidia.com/mig-1g.5gb': 2 },
  },
  {
    name: 'a fraction is not a GPU count: left out',
    pod: { containers: [{ limits: { [G]: '500m' } }] },
    expect: {},
  },
  { name: 'no GPU at all', pod: { containers: [{ limits: { cpu: '1' } }] }, expect: {} },
];

describe('gpuRequestsOfSpec (the scheduler rule on a raw pod)', () => {
  it.each(cases)('$name', ({ pod, expect: want }) => {
    const raw = rawPod({ name: 'p', ...pod }) as { spec: Record<string, unknown> };
    expect(gpuRequestsOfSpec(raw.spec)).toEqual(want);
  });
});

describe('podRequests', () => {
  it('sidecars accumulate before each init container (KEP-753)', () => {
    const r = podRequests({
      containers: [{ requests: { x: 1 } }],
      initContainers: [
        { requests: { x: 2 }, sidecar: true },
        { requests: { x: 3 }, sidecar: true },
        { requests: { x: 1 } },
      ],
      overhead: {},
    });
    // app 1 + sidecars 5 = 6; the last init's moment is 1 + 5 = 6
    expect(r).toEqual({ x: 6 });
  });
});
