/** The Capacity view's Pending list: what a pod tolerates, where the scheduler names an untolerated taint. */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ClusterFree, PendingGpuPod } from '../../common/free-gpus.ts';
import { context, inventory, node } from '../fixtures/homelab.ts';
import CapacityView from './CapacityView.svelte';

const TAINT = '0/2 nodes are available: 2 node(s) had untolerated taint {dedicated: ml}.';

function free(pods: PendingGpuPod[]): ClusterFree {
  return {
    state: 'known',
    reason: null,
    message: null,
    stale: false,
    products: [],
    nodes: [],
    free_total: 0,
    pending: { count: pods.length, pods },
    overcommitted: [],
  };
}

const pod = (name: string, over: Partial<PendingGpuPod> = {}): PendingGpuPod => ({
  namespace: 'ml',
  name,
  requests: { 'nvidia.com/gpu': 1 },
  reason: 'Unschedulable',
  message: TAINT,
  ...over,
});

describe('Capacity view: Pending GPU pods', () => {
  it('says what a pod tolerates, that it tolerates none, or nothing where it does not explain the reason', () => {
    const pods = [
      pod('a', { tolerations: ['dedicated=eval:NoSchedule', 'op=Exists'] }),
      pod('b', { tolerations: [] }),
      pod('c', { message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.' }),
    ];
    render(CapacityView, {
      props: { contexts: [context('lab', inventory([node('g1')]), { free: free(pods) })] },
    });
    const shown = screen.getAllByTestId('pending-tolerations').map((p) => p.textContent?.trim());
    expect(shown).toEqual(['Tolerates: dedicated=eval:NoSchedule, op=Exists', 'Tolerates no taint']);
  });
});

describe('Capacity view: figures from the in-cluster controller', () => {
  it('says they are the controller’s, that it has no per-node detail, and marks them stale', () => {
    const fromController = (stale: boolean): ClusterFree => ({ ...free([]), source: 'controller', stale });
    render(CapacityView, {
      props: {
        contexts: [
          context('lab', inventory([node('g1')]), { free: fromController(true) }),
          context('home', inventory([node('g2')]), { free: { ...free([]), stale: true } }),
        ],
      },
    });
    expect(screen.getAllByTestId('capacity-controller').map((p) => p.textContent?.trim())).toEqual([
      'lab: free GPUs from the in-cluster controller, which reports them per product; per-node detail is not available from it.',
    ]);
    expect(screen.getAllByTestId('capacity-stale').map((p) => p.textContent?.trim())).toEqual([
      'lab: last known, the in-cluster controller has not confirmed its figures for a while',
      'home: last known, the pods watch is reconnecting',
    ]);
  });
});
