/** What is kept of a pod: only GPU pods, validated and bounded; the transcript's pod as the server sent it. */
import { describe, expect, it } from 'vitest';
import { gpuPodSpec, rawPod } from '../../test/fixtures/pods.ts';
import { podKey, trimGpuPod, wantsGpu } from './gpu-pod.ts';

describe('trimGpuPod', () => {
  it('keeps the transcript pod (shared/real-api/12 §25): node, phase, request; tolerations only while unbound', () => {
    const raw = rawPod({
      name: 'rec-gpu-pod',
      namespace: 'rec-ns',
      node: 'rec-gpu-node-1',
      phase: 'Pending',
      containers: [gpuPodSpec('nvidia.com/gpu', 1)],
    });
    const p = trimGpuPod(raw);
    expect(p).toEqual({
      key: 'rec-ns/rec-gpu-pod',
      node: 'rec-gpu-node-1',
      phase: 'Pending',
      requests: { 'nvidia.com/gpu': 1 },
    });
    // The key is the one string kept for both; namespace and name are read from it.
    expect([p?.namespace, p?.name]).toEqual(['rec-ns', 'rec-gpu-pod']);
    expect(podKey(p!)).toBe('rec-ns/rec-gpu-pod');
    expect(podKey(p!)).toBe(podKey(p!));
    expect(podKey({ namespace: 'rec-ns', name: 'rec-gpu-pod' })).toBe('rec-ns/rec-gpu-pod');
    // Bound pods carry no fields for what only unbound ones need.
    expect(Object.keys(p!).sort()).toEqual(['key', 'node', 'phase', 'requests']);
    // The same pod before the scheduler bound it: what explains its wait is kept.
    const unbound = trimGpuPod(
      rawPod({
        name: 'rec-gpu-pod',
        namespace: 'rec-ns',
        phase: 'Pending',
        containers: [gpuPodSpec('nvidia.com/gpu', 1)],
      }),
    );
    expect(unbound).toEqual({
      key: 'rec-ns/rec-gpu-pod',
      node: null,
      phase: 'Pending',
      requests: { 'nvidia.com/gpu': 1 },
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', value: null, effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', value: null, effect: 'NoExecute' },
      ],
      unscheduled: null,
    });
  });

  it('a pod that requests no GPU is not kept (and wantsGpu says so before anything is copied)', () => {
    const raw = rawPod({ name: 'web', node: 'n', containers: [{ limits: { cpu: '1', memory: '1Gi' } }] });
    expect(wantsGpu(raw)).toBe(false);
    expect(trimGpuPod(raw)).toBeNull();
    expect(
      wantsGpu(rawPod({ name: 'nic', containers: [{ limits: { 'nvidia.com/rdma_shared_device_a': '1' } }] })),
    ).toBe(false);
  });

  it('refuses names no API server stores; cuts texts; caps tolerations', () => {
    expect(
      trimGpuPod(rawPod({ name: 'Bad\u202ename', containers: [gpuPodSpec('nvidia.com/gpu', 1)] })),
    ).toBeNull();
    expect(
      trimGpuPod(
        rawPod({ name: 'ok', namespace: 'x'.repeat(64), containers: [gpuPodSpec('nvidia.com/gpu', 1)] }),
      ),
    ).toBeNull();
    const many = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, operator: 'Exists' }));
    const p = trimGpuPod(
      rawPod({
        name: 'ok',
        containers: [gpuPodSpec('nvidia.com/gpu', 1)],
        tolerations: many,
        unschedulable: { message: `0/8 nodes are available:\n${'x'.repeat(5000)}` },
      }),
    );
    expect(p?.tolerations).toHaveLength(32);
    expect(p?.unscheduled?.message?.length).toBeLessThanOrEqual(301);
    expect(p?.unscheduled?.message).not.toMatch(/\n/);
  });

  it('equal requests and tolerations are one shared object between pods', () => {
    const a = trimGpuPod(rawPod({ name: 'a', containers: [gpuPodSpec('nvidia.com/gpu', 1)] }));
    const b = trimGpuPod(rawPod({ name: 'b', containers: [gpuPodSpec('nvidia.com/gpu', 1)] }));
    expect(a?.requests).toBe(b?.requests);
    expect(a?.tolerations).toBe(b?.tolerations);
  });
});
