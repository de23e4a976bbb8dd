/** `gpu-fleet free`'s Pending table: -o wide shows what a pod tolerates where it explains the reason. */
import { describe, expect, it } from 'vitest';
import type { ClusterFree } from '../../../common/free-gpus.ts';
import { unknownFree } from '../../inventory/free-gpus.ts';
import { formatFree } from './free-format.ts';
import type { FreeRead } from './free-read.ts';

const TAINT = '0/2 nodes are available: 2 node(s) had untolerated taint {dedicated: ml}.';
const free: ClusterFree = {
  ...unknownFree('listing'),
  state: 'known',
  reason: null,
  message: null,
  free_total: 0,
  pending: {
    count: 3,
    pods: [
      {
        namespace: 'ml',
        name: 'a',
        requests: { 'nvidia.com/gpu': 1 },
        reason: 'Unschedulable',
        message: TAINT,
        tolerations: ['dedicated=eval:NoSchedule'],
      },
      {
        namespace: 'ml',
        name: 'b',
        requests: { 'nvidia.com/gpu': 1 },
        reason: 'Unschedulable',
        message: TAINT,
        tolerations: [],
      },
      { namespace: 'ml', name: 'c', requests: { 'nvidia.com/gpu': 8 }, reason: null, message: null },
    ],
  },
};
const reads: FreeRead[] = [{ context: 'lab', free, nodes: [], error: null }];

describe('free: Pending GPU pods', () => {
  it('-o wide adds TOLERATIONS: the list, <none>, or - where they do not explain the reason', () => {
    const lines = formatFree(reads, true).split('\n');
    const head = lines.findIndex((l) => l.startsWith('CONTEXT') && l.includes('TOLERATIONS'));
    expect(head).toBeGreaterThan(0);
    const rows = lines.slice(head + 1, head + 4).map((l) => l.split(/\s{2,}/));
    expect(rows.map((r) => r[3])).toEqual(['dedicated=eval:NoSchedule', '<none>', '-']);
  });

  it('the plain table keeps its columns', () => {
    expect(formatFree(reads, false)).not.toContain('TOLERATIONS');
  });
});

describe('free: the table says what FREE leaves out, and an error once', () => {
  const node = (name: string, o: { ready?: boolean; cordoned?: boolean; free: number }) => ({
    name,
    product: 'NVIDIA-L4',
    ready: o.ready ?? true,
    cordoned: o.cordoned ?? false,
    taints: [],
    slots: [
      {
        resource: 'nvidia.com/gpu',
        kind: 'whole' as const,
        profile: null,
        capacity: 2,
        allocatable: 2,
        requested: 2 - o.free,
        free: o.free,
        overcommitted: false,
        physical: null,
      },
    ],
  });
  it('a NOTE names the cordoned and NotReady nodes with free slots FREE does not count', () => {
    const nodes = [
      node('up', { free: 1 }),
      node('off', { cordoned: true, free: 2 }),
      node('down', { ready: false, free: 0 }),
    ];
    const known: ClusterFree = { ...free, nodes, overcommitted: ['w'] };
    const text = formatFree([{ context: 'lab', free: known, nodes, error: null }], false);
    expect(text).toContain(
      'NOTE: FREE counts only nodes that can take a pod now; left out (cordoned or NotReady): lab/off 2 (cordoned)',
    );
    expect(text).toContain('lab: pods request more than allocatable on w (overcommitted)');
  });
  it('a context that could not be read is left to stderr (free.ts), not said twice', () => {
    const text = formatFree([{ context: 'gone', free: null, nodes: [], error: 'connection refused' }], false);
    expect(text).not.toContain('connection refused');
  });
});
