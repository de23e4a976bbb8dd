/**
 * A node's GPU problems are engine facts worded by the window: a Korean window shows none of the
 * engine's English sentences, on the card or in the wide node table. The entries are built by the
 * engine's own inventory code from nodes with every kind of problem it reports.
 */
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuNodeEntry } from '../../common/inventory.ts';
import type { NodeDetail } from '../../common/node-detail.ts';
import { buildInventory } from '../../main/inventory/aggregate.ts';
import { type NodeFacts, trimNode } from '../../main/inventory/node-facts.ts';
import { gfdLabels, rawNode } from '../../test/fixtures/nodes.ts';
import { context, NOW } from '../fixtures/homelab.ts';
import { homelabDetail } from '../fixtures/node-detail.ts';
import { i18n } from '../i18n/i18n.svelte.ts';
import { NodeTableState } from '../state/node-table.svelte.ts';
import ContextCard from './ContextCard.svelte';
import DetailGpu from './detail/DetailGpu.svelte';
import NodeTable from './NodeTable.svelte';

const raws = [
  // A count that is no number, a negative replica count, and a GPU the device plugin withdrew.
  rawNode({
    name: 'gpu-a',
    labels: {
      ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960),
      'nvidia.com/gpu.count': 'lots',
      'nvidia.com/gpu.replicas': '-1',
    },
    capacity: { 'nvidia.com/gpu': '4' },
    allocatable: { 'nvidia.com/gpu': '3' },
  }),
  // A product label with no GPU resource behind it.
  rawNode({ name: 'gpu-b', labels: gfdLabels('NVIDIA-L40S', 1, 46068) }),
  // MIG labels the resources do not match, and a quantity that is no whole number.
  rawNode({
    name: 'gpu-c',
    labels: {
      ...gfdLabels('NVIDIA-A100-SXM4-40GB', 1, 40960),
      'nvidia.com/mig.strategy': 'mixed',
      'nvidia.com/mig-1g.5gb.count': '2',
    },
    capacity: { 'nvidia.com/gpu': '1', 'nvidia.com/mig-2g.10gb': '1.5' },
  }),
];
const nodes: GpuNodeEntry[] = buildInventory(
  raws.map(trimNode).filter((f): f is NodeFacts => f !== null),
  new Map(),
  '2026-12-01T00:00:00Z',
).nodes;
const english = nodes.flatMap((n) => n.problems ?? []);
const ctx = context('lab', inventoryOf(nodes));

function inventoryOf(ns: GpuNodeEntry[]) {
  return {
    observed_at: '2026-12-01T00:00:00Z',
    total_gpu_nodes: ns.length,
    ready_gpu_nodes: ns.length,
    total_gpus: ns.reduce((s, n) => s + n.count, 0),
    nodes: ns,
  };
}

// Words of the engine's English problem sentences that a Korean sentence would not contain.
const ENGLISH =
  /\b(label|withdrawn|counted|labelled|advertised|advertises|disagree|implausibly|whole number|shown as|device plugin|capacity is)\b/;

afterEach(() => i18n.setLanguage('en'));

describe('GPU problems in a Korean window', () => {
  it('the engine reported every kind it has (so the test covers them)', () => {
    expect(
      nodes
        .flatMap((n) => n.problem_words ?? [])
        .map((w) => w.code)
        .sort(),
    ).toEqual([
      'hiddenGpus',
      'labelValue',
      'labelValue',
      'migDisagree',
      'quantityValue',
      'quantityValue',
      'withdrawn',
    ]);
    expect(english.length).toBe(7);
  });

  it('the card shows none of the English sentences', () => {
    i18n.setLanguage('ko');
    render(ContextCard, {
      props: { ctx, index: 1, focused: false, now: NOW, onselect: () => {}, onnode: () => {} },
    });
    const lines = screen.getAllByTestId('card-problem').map((l) => l.textContent ?? '');
    expect(lines).toHaveLength(5);
    for (const line of lines) {
      expect(english.some((e) => line.includes(e))).toBe(false);
      expect(line).not.toMatch(ENGLISH);
    }
  });

  it('the wide node table shows none of them either', () => {
    i18n.setLanguage('ko');
    const table = new NodeTableState();
    table.wide = true;
    render(NodeTable, { props: { ctx, table, highlight: null, now: NOW, onopen: () => {} } });
    const cells = screen.getAllByTestId('node-row').map((r) => r.lastElementChild?.textContent ?? '');
    expect(cells).toHaveLength(3);
    for (const cell of cells) {
      expect(cell).not.toBe('—');
      expect(english.some((e) => cell.includes(e))).toBe(false);
      expect(cell).not.toMatch(ENGLISH);
    }
  });

  it("the node detail's GPU problems neither", () => {
    i18n.setLanguage('ko');
    const gpu = nodes.find((n) => n.name === 'gpu-a') as GpuNodeEntry;
    render(DetailGpu, { props: { detail: { ...(homelabDetail('nuc1') as NodeDetail), gpu } } });
    const items = [...screen.getByTestId('detail-gpu-problems').querySelectorAll('li')].map(
      (l) => l.textContent ?? '',
    );
    expect(items).toHaveLength(gpu.problems?.length ?? -1);
    for (const item of items) {
      expect(english.some((e) => item.includes(e))).toBe(false);
      expect(item).not.toMatch(ENGLISH);
    }
  });
});
