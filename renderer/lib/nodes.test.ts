import { describe, expect, it } from 'vitest';
import { HOMELAB_NODES, node } from '../fixtures/homelab.ts';
import { largeNodes } from '../fixtures/large.ts';
import { type NodeFilter, selectNodes, visibleRange } from './nodes.ts';

const byName = { key: 'name', dir: 'asc' } as const;
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('selectNodes', () => {
  it.each<[NodeFilter, string[]]>([
    ['all', ['nuc1', 'nuc2', 'omen', 'omen2']],
    ['not-ready', ['nuc1', 'nuc2', 'omen', 'omen2']],
    ['unlabeled', ['nuc2', 'omen', 'omen2']],
    ['problems', ['nuc1']],
  ])('filter %s', (filter, expected) => {
    expect(names(selectNodes(HOMELAB_NODES, filter, '', byName))).toEqual(expected);
  });

  it('searches name, product, workload and last-seen product', () => {
    expect(names(selectNodes(HOMELAB_NODES, 'all', 'OMEN', byName))).toEqual(['omen', 'omen2']);
    expect(names(selectNodes(HOMELAB_NODES, 'all', 'container', byName))).toEqual(['omen2']);
    expect(names(selectNodes(HOMELAB_NODES, 'all', '4070', byName))).toEqual(['nuc1', 'nuc2']);
  });

  it('sorts numbers numerically, names naturally, missing values last both ways', () => {
    const nodes = [node('n10', { count: 2 }), node('n2', { count: 8 }), node('n1', { count: 0, memory: 5 })];
    expect(names(selectNodes(nodes, 'all', '', byName))).toEqual(['n1', 'n2', 'n10']);
    expect(names(selectNodes(nodes, 'all', '', { key: 'count', dir: 'desc' }))).toEqual(['n2', 'n10', 'n1']);
    expect(names(selectNodes(nodes, 'all', '', { key: 'memory', dir: 'asc' }))[0]).toBe('n1');
    expect(names(selectNodes(nodes, 'all', '', { key: 'memory', dir: 'desc' }))[0]).toBe('n1');
  });

  it('handles 5,000 nodes and keeps the input untouched', () => {
    const nodes = largeNodes();
    const rows = selectNodes(nodes, 'not-ready', '', { key: 'name', dir: 'desc' });
    expect(rows).toHaveLength(Math.ceil(5000 / 17));
    expect(rows[0]?.name).toBe('gpu-4998');
    expect(nodes[0]?.name).toBe('gpu-0000');
  });
});

describe('visibleRange', () => {
  it.each([
    [0, 600, 34, 5000, { start: 0, end: 24 }],
    [34 * 1000, 600, 34, 5000, { start: 994, end: 1024 }],
    [34 * 4990, 600, 34, 5000, { start: 4984, end: 5000 }],
    [0, 600, 34, 3, { start: 0, end: 3 }],
    [500, 600, 34, 0, { start: 0, end: 0 }],
  ])('scrollTop %i', (top, h, row, total, expected) => {
    expect(visibleRange(top, h, row, total)).toEqual(expected);
  });
});
