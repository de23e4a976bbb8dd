/** The Capacity view's Pending list: what a pod tolerates, where the scheduler names an untolerated taint. */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ClusterFree, PendingGpuPod } from '../../common/free-gpus.ts';
import { context, inventory, node } from '../fixtures/homelab.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
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

describe('Capacity view: products in the window language', () => {
  const sharedProduct = {
    key: 'NVIDIA-GeForce-RTX-4090|shared||',
    label: 'RTX 4090 (shared)',
    product: 'NVIDIA-GeForce-RTX-4090-SHARED',
    kind: 'shared' as const,
    profile: null,
    nodes: 1,
    capacity: 4,
    allocatable: 4,
    in_use: 2,
    free: 2,
    max_free_on_one_node: 2,
    physical: 1,
  };

  it('words "shared" in Japanese, says the replicas share 1 GPU, and shows free as unknown, never 0', () => {
    i18n.setLanguage('ja');
    try {
      const forbidden: ClusterFree = {
        ...free([]),
        state: 'unknown',
        reason: 'forbidden',
        free_total: null,
        pending: null,
        products: [
          {
            ...sharedProduct,
            key: 'x',
            label: 'L4',
            product: 'NVIDIA-L4',
            kind: 'whole',
            in_use: null,
            free: null,
            max_free_on_one_node: null,
            physical: undefined,
          },
        ],
      };
      render(CapacityView, {
        props: {
          contexts: [
            context('lab', inventory([node('g1')]), {
              free: { ...free([]), products: [sharedProduct], free_total: 2 },
            }),
            context('ro', inventory([node('g2')]), { free: forbidden }),
          ],
        },
      });
      const rows = screen.getAllByTestId('capacity-row');
      expect(rows.map((r) => r.getAttribute('data-product'))).toEqual(['RTX 4090 (shared)', 'L4']);
      expect(rows[0]?.querySelector('th')?.textContent).toContain('RTX 4090（共有）');
      expect(rows[0]?.textContent).not.toMatch(/shared|replica/);
      expect(screen.getByTestId('capacity-replicas').textContent).toBe('GPU 1 基を分けた 4 レプリカ');
      expect(rows[1]?.querySelector('[data-testid="capacity-free"]')?.textContent).toBe('不明');
      expect(screen.getByTestId('capacity-unknown-in').textContent).toContain('ro');
      expect(screen.queryByTestId('capacity-overcommitted')).toBeNull();
    } finally {
      i18n.setLanguage('auto');
    }
  });
});

describe('Capacity view: overcommit', () => {
  it('says pods request more than allocatable where a device is gone under running pods', () => {
    const gone = {
      ...free([]),
      products: [
        {
          key: 'k',
          label: 'RTX 4070 Laptop GPU (shared)',
          product: 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED',
          kind: 'shared' as const,
          profile: null,
          nodes: 1,
          capacity: 0,
          allocatable: 0,
          in_use: 1,
          free: 0,
          max_free_on_one_node: 0,
          physical: 1,
        },
      ],
      overcommitted: ['nuc1'],
    };
    render(CapacityView, {
      props: { contexts: [context('home', inventory([node('nuc1')]), { free: gone })] },
    });
    expect(screen.getByTestId('capacity-overcommitted').textContent).toBe(
      'pods request more than allocatable',
    );
    expect(screen.queryByTestId('capacity-replicas')).toBeNull();
  });
});
