/** The pure readers of a node's events (newest first, capped) and of the GPU pods on it. */
import { describe, expect, it } from 'vitest';
import { MAX_EVENTS, MAX_PODS, readEvents, readGpuPods } from './events-pods.ts';

const list = (items: unknown[]) => ({ kind: 'List', items });

describe('readEvents', () => {
  it('reads core/v1 events newest first, with count, last and source', () => {
    const out = readEvents(
      list([
        {
          type: 'Normal',
          reason: 'NodeNotReady',
          message: 'Node omen status is now: NodeNotReady',
          source: { component: 'node-controller' },
          lastTimestamp: '2026-12-01T09:00:00Z',
          count: 3,
        },
        {
          type: 'Warning',
          reason: 'Rebooted',
          message: 'Node omen has been rebooted',
          source: {},
          reportingComponent: 'kubelet',
          lastTimestamp: null,
          eventTime: '2026-12-01T10:00:00.123456Z',
        },
        {
          reason: 'Series',
          series: { count: 12, lastObservedTime: '2026-12-01T11:00:00.000000Z' },
          metadata: {
            creationTimestamp: '2026-12-01T08:00:00Z',
            uid: '6a1f0c2e-0d1b-4f57-9d3e-0123456789ab',
          },
        },
      ]),
    );
    expect(out).toEqual([
      {
        uid: '6a1f0c2e-0d1b-4f57-9d3e-0123456789ab',
        first: '2026-12-01T08:00:00Z',
        type: 'Normal',
        reason: 'Series',
        message: '',
        count: 12,
        last: '2026-12-01T11:00:00.000000Z',
        source: null,
      },
      {
        first: '2026-12-01T10:00:00.123456Z',
        type: 'Warning',
        reason: 'Rebooted',
        message: 'Node omen has been rebooted',
        count: 1,
        last: '2026-12-01T10:00:00.123456Z',
        source: 'kubelet',
      },
      {
        first: null,
        type: 'Normal',
        reason: 'NodeNotReady',
        message: 'Node omen status is now: NodeNotReady',
        count: 3,
        last: '2026-12-01T09:00:00Z',
        source: 'node-controller',
      },
    ]);
  });

  it.each([
    ['not a list', 'x'],
    ['items not an array', { items: {} }],
    ['no items', {}],
  ])('gives [] for %s', (_what, l) => {
    expect(readEvents(l)).toEqual([]);
  });

  it('keeps the newest MAX_EVENTS of many, and bounds hostile counts and text', () => {
    const many = Array.from({ length: MAX_EVENTS + 30 }, (_, i) => ({
      reason: `R${i}`,
      message: `\u001b]0;title\u0007line\nforged ${'y'.repeat(1000)}`,
      count: i === 0 ? 1e300 : -4,
      lastTimestamp: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    const out = readEvents(list(many));
    expect(out).toHaveLength(MAX_EVENTS);
    expect(out[0]?.reason).toBe(`R${MAX_EVENTS + 29}`);
    const controls = (t: string) => Array.from(t).some((ch) => (ch.codePointAt(0) ?? 0) < 32);
    expect(out.every((e) => e.count === 1 && !controls(e.message))).toBe(true);
    expect(out[0]?.message.startsWith('line forged y')).toBe(true);
  });
});

const pod = (name: string, spec: unknown, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'ml', ...extra },
  spec,
  status: { phase: 'Running' },
});
const gpu = (n: string, resource = 'nvidia.com/gpu') => ({ resources: { limits: { [resource]: n } } });

describe('readGpuPods', () => {
  it.each([
    ['one container, 1 GPU', { containers: [gpu('1')] }, 1],
    ['two containers add up', { containers: [gpu('1'), gpu('2')] }, 3],
    ['time-sliced replicas count', { containers: [gpu('2', 'nvidia.com/gpu.shared')] }, 2],
    ['MIG instances count', { containers: [gpu('1', 'nvidia.com/mig-1g.10gb')] }, 1],
    ['an init container asking more wins', { containers: [gpu('1')], initContainers: [gpu('4')] }, 4],
    [
      'a request without a limit still counts',
      { containers: [{ resources: { requests: { 'nvidia.com/gpu': '1' } } }] },
      1,
    ],
    ['network devices are not GPUs', { containers: [gpu('1', 'nvidia.com/rdma_shared_device_a')] }, 0],
    ['a fraction is not a count', { containers: [gpu('500m')] }, 0],
    ['no resources', { containers: [{}] }, 0],
  ])('%s → %d GPUs', (_what, spec, gpus) => {
    const out = readGpuPods(list([pod('p', spec)]));
    expect(out.map((p) => p.gpus)).toEqual(gpus === 0 ? [] : [gpus]);
  });

  it('sorts by namespace and name, marks a pod being deleted as Terminating, and caps the list', () => {
    const out = readGpuPods(
      list([
        pod('b', { containers: [gpu('1')] }),
        pod('a', { containers: [gpu('1')] }, { deletionTimestamp: '2026-12-01T10:00:00Z' }),
        { metadata: { name: 'z', namespace: 'default' }, spec: { containers: [gpu('1')] } },
      ]),
    );
    expect(out).toEqual([
      { namespace: 'default', name: 'z', phase: 'Unknown', gpus: 1 },
      { namespace: 'ml', name: 'a', phase: 'Terminating', gpus: 1 },
      { namespace: 'ml', name: 'b', phase: 'Running', gpus: 1 },
    ]);
    const many = Array.from({ length: MAX_PODS + 5 }, (_, i) => pod(`p${i}`, { containers: [gpu('1')] }));
    expect(readGpuPods(list(many))).toHaveLength(MAX_PODS);
  });
});
