import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { context, homelab, inventory, NOW, node } from '../fixtures/homelab.ts';
import { largeContext } from '../fixtures/large.ts';
import { NodeTableState } from '../state/node-table.svelte.ts';
import NodeTable from './NodeTable.svelte';

function show(ctx = homelab()) {
  const table = new NodeTableState();
  const opened: string[] = [];
  const r = render(NodeTable, {
    props: { ctx, table, highlight: null, now: NOW, onopen: (n: string) => opened.push(n) },
  });
  return { table, opened, ...r };
}
const rows = () => screen.getAllByTestId('node-row');
const names = () => rows().map((r) => r.dataset.node);
const row = (name: string) => rows().find((r) => r.dataset.node === name)!;

describe('node table', () => {
  it("shows SPEC.md's home lab with short products, <unlabeled> and what a node last had", () => {
    show();
    expect(names()).toEqual(['nuc1', 'nuc2', 'omen', 'omen2']);
    const cells = (name: string) =>
      [...row(name).children].map((c) => c.textContent?.replace(/\s+/g, ' ').trim());
    expect(cells('nuc1')).toEqual([
      'nuc1',
      'Unknown',
      'RTX 4070 Laptop GPU (shared)',
      '1',
      '8188 MiB',
      'vm-passthrough',
    ]);
    expect(cells('nuc2')).toEqual([
      'nuc2',
      'Unknown',
      '<unlabeled> last seen: RTX 4070 ×1',
      '0',
      '—',
      'vm-passthrough',
    ]);
    expect(cells('omen')[2]).toBe('<unlabeled>');
    expect(cells('omen2')[5]).toBe('container');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼]/, '').trim());
    expect(headers).toEqual(['Name', 'Ready', 'Product', 'GPUs', 'Memory', 'Workload']);
  });

  it('shows the model telemetry reports for a node whose labels are gone, marked as such', () => {
    const ctx = {
      ...homelab(),
      telemetry: {
        hottest: null,
        xids: [],
        models: [
          { node: 'omen2', model: 'NVIDIA GeForce RTX 4070 SUPER' },
          // A labelled node keeps its label: telemetry speaks only where the labels are gone.
          { node: 'nuc1', model: 'NVIDIA H100' },
        ],
      },
    };
    show(ctx);
    const product = (name: string) => row(name).children[2]?.textContent?.replace(/\s+/g, ' ').trim();
    expect(product('omen2')).toBe('RTX 4070 SUPER (from telemetry)');
    expect(product('nuc1')).toBe('RTX 4070 Laptop GPU (shared)');
    expect(product('omen')).toBe('<unlabeled>');
  });

  it('sorts by product both ways, missing products last, ties by name', async () => {
    // Fed in an order that is neither by name nor by product, so an unsorted table fails every check.
    const nodes = [
      node('n-c', { product: 'NVIDIA-H100-80GB-HBM3', count: 8 }),
      node('n-a', { product: 'NVIDIA-A100-SXM4-40GB', count: 8 }),
      node('n-e'),
      node('n-b', { product: 'NVIDIA-GeForce-RTX-4090', count: 1 }),
      node('n-d', { product: 'NVIDIA-A100-SXM4-40GB', count: 8 }),
    ];
    show(context('mixed', inventory(nodes)));
    expect(names()).toEqual(['n-a', 'n-b', 'n-c', 'n-d', 'n-e']);
    const product = screen.getByTestId('sort-product');
    await fireEvent.click(product);
    expect(names()).toEqual(['n-a', 'n-d', 'n-b', 'n-c', 'n-e']);
    expect(product.closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    await fireEvent.click(product);
    expect(names()).toEqual(['n-c', 'n-b', 'n-a', 'n-d', 'n-e']);
    expect(product.closest('th')?.getAttribute('aria-sort')).toBe('descending');
  });

  it('sorts by a clicked header and flips on a second click, with aria-sort', async () => {
    show();
    await fireEvent.click(screen.getByTestId('sort-workload'));
    expect(names()[0]).toBe('omen2');
    await fireEvent.click(screen.getByTestId('sort-workload'));
    expect(names().at(-1)).toBe('omen2');
    expect(screen.getByTestId('sort-workload').closest('th')?.getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByTestId('sort-name').closest('th')?.getAttribute('aria-sort')).toBe('none');
  });

  it('filters and searches', async () => {
    show();
    await fireEvent.click(screen.getByTestId('filter-unlabeled'));
    expect(names()).toEqual(['nuc2', 'omen', 'omen2']);
    await fireEvent.input(screen.getByTestId('node-search'), { target: { value: 'omen' } });
    expect(names()).toEqual(['omen', 'omen2']);
    expect(screen.getByTestId('node-count').textContent?.trim()).toBe('2 of 4 nodes');
    await fireEvent.click(screen.getByTestId('filter-problems'));
    expect(screen.queryAllByTestId('node-row')).toHaveLength(0);
    expect(screen.getByText('No node matches the filter.')).toBeTruthy();
  });

  it('adds readiness, allocatable, sharing, cordoned and problems in the wide view', async () => {
    show();
    await fireEvent.click(screen.getByTestId('wide-toggle'));
    expect(screen.getAllByRole('columnheader')).toHaveLength(12);
    const nuc1 = within(row('nuc1'));
    expect(nuc1.getByText('Unknown · NodeStatusUnknown · since 30 min')).toBeTruthy();
    expect(nuc1.getByText('0 / 4')).toBeTruthy();
    expect(nuc1.getByText('time-slicing ×4')).toBeTruthy();
    expect(nuc1.getByText('capacity 4 but allocatable 0')).toBeTruthy();
    expect(within(row('omen')).getByText('Cordoned')).toBeTruthy();
  });

  it('keeps far fewer than 5,000 rows in the DOM and scrolls the window of rows', async () => {
    const { container } = show(largeContext());
    expect(rows().length).toBeGreaterThan(10);
    expect(rows().length).toBeLessThan(60);
    expect(names()[0]).toBe('gpu-0000');
    expect(container.querySelector('table')?.getAttribute('aria-rowcount')).toBe('5001');
    const scroller = container.querySelector('.scroller') as HTMLElement;
    scroller.scrollTop = 34 * 2500;
    await fireEvent.scroll(scroller);
    expect(names()).toContain('gpu-2500');
    expect(names()).not.toContain('gpu-0000');
    expect(rows().length).toBeLessThan(60);
    expect(row('gpu-2500').getAttribute('aria-rowindex')).toBe('2502');
  });

  it('updates one row in place when one node changes', async () => {
    const ctx = homelab();
    const { rerender } = show(ctx);
    const before = rows();
    // As a delta makes it: a new list sharing every entry but the changed one (snapshots are never mutated).
    const inv = ctx.inventory!;
    const nodes = inv.nodes.map((n, i) => (i === 3 ? { ...n, ready: true, readiness: 'True' as const } : n));
    const next = { ...ctx, inventory: { ...inv, nodes } };
    await rerender({ ctx: next });
    const after = rows();
    expect(after.map((r, i) => r === before[i])).toEqual([true, true, true, true]);
    expect(within(row('omen2')).getByText('Ready')).toBeTruthy();
  });

  it('opens a node on a row click, on Enter or Space on the focused row, and moves with the arrows', async () => {
    const { opened } = show();
    await fireEvent.click(row('omen').querySelector('td')!);
    expect(opened).toEqual(['omen']);
    row('nuc1').focus();
    await fireEvent.keyDown(row('nuc1'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(row('nuc2'));
    await fireEvent.keyDown(row('nuc2'), { key: 'Enter' });
    await fireEvent.keyDown(row('nuc2'), { key: ' ' });
    await fireEvent.keyDown(row('nuc2'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(row('nuc1'));
    await fireEvent.keyDown(row('nuc1'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(row('nuc1'));
    await fireEvent.keyDown(row('nuc1'), { key: 'x' });
    expect(opened).toEqual(['omen', 'nuc2', 'nuc2']);
    expect(row('omen').tabIndex).toBe(0);
  });
});
