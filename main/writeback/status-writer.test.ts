/**
 * What counts as "the same status" for the no-op skip (statusesEqual) and what counts as a status we can
 * compare at all (statusOf, reading untrusted cluster objects). The compaction markers matter: a status
 * that lists every node must not pass for one that lists fewer with `nodes_omitted`, or a reader would
 * keep a wrong picture of which nodes are omitted.
 */
import { describe, expect, it } from 'vitest';
import type { GpuInventoryStatus } from '../../common/inventory.ts';
import { statusesEqual, statusOf } from './status-writer.ts';

const base: GpuInventoryStatus = {
  observed_at: '2026-12-03T10:00:00Z',
  total_gpu_nodes: 2,
  ready_gpu_nodes: 1,
  total_gpus: 2,
  nodes: [
    { name: 'a', ready: true, product: 'NVIDIA-A100', count: 1, memory: 81920, workload: 'container' },
    { name: 'b', ready: false, product: 'NVIDIA-A100', count: 1, memory: 81920, workload: 'container' },
  ],
};

describe('statusesEqual', () => {
  it('ignores observed_at and node order', () => {
    const later = { ...base, observed_at: '2026-12-03T11:00:00Z', nodes: [...base.nodes].reverse() };
    expect(statusesEqual(later, base)).toBe(true);
  });

  it('is false against nothing read yet', () => {
    expect(statusesEqual(base, null)).toBe(false);
  });

  it('tells a compacted status from a full one with the same entries', () => {
    expect(statusesEqual({ ...base, nodes_compacted: true }, base)).toBe(false);
    expect(statusesEqual(base, { ...base, nodes_compacted: true })).toBe(false);
    expect(statusesEqual({ ...base, nodes_compacted: true }, { ...base, nodes_compacted: true })).toBe(true);
    // Absent and false are the same marker.
    expect(statusesEqual({ ...base, nodes_compacted: false }, base)).toBe(true);
  });

  it('tells statuses apart by how many nodes they omit', () => {
    expect(statusesEqual({ ...base, nodes_omitted: 3 }, base)).toBe(false);
    expect(statusesEqual({ ...base, nodes_omitted: 3 }, { ...base, nodes_omitted: 4 })).toBe(false);
    expect(statusesEqual({ ...base, nodes_omitted: 3 }, { ...base, nodes_omitted: 3 })).toBe(true);
    expect(statusesEqual({ ...base, nodes_omitted: 0 }, base)).toBe(true);
  });

  it('sees a changed count or readiness', () => {
    expect(statusesEqual({ ...base, ready_gpu_nodes: 2 }, base)).toBe(false);
  });
});

describe('statusOf', () => {
  it('reads a status of our shape', () => {
    expect(statusOf({ status: base })).toEqual(base);
  });

  it.each([
    ['no object', null],
    ['no status yet', {}],
    ['a count that is not an integer', { status: { ...base, total_gpus: 1.5 } }],
    ['a count as a string', { status: { ...base, ready_gpu_nodes: '1' } }],
    ['nodes that are not a list', { status: { ...base, nodes: {} } }],
    ['a node without a name', { status: { ...base, nodes: [{ ready: true }] } }],
  ])('is null for %s (so it gets written)', (_why, object) => {
    expect(statusOf(object as Record<string, unknown> | null)).toBeNull();
  });
});
