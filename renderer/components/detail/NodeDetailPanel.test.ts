import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeDetail } from '../../../common/node-detail.ts';
import { NOW } from '../../fixtures/homelab.ts';
import { homelabDetail } from '../../fixtures/node-detail.ts';
import { NodeDetailState, REFRESH_MS } from '../../state/node-detail.svelte.ts';
import NodeDetailPanel from './NodeDetailPanel.svelte';

interface Deferred {
  resolve: (d: NodeDetail) => void;
  reject: (e: unknown) => void;
  node: string;
}

/** A detail source whose answers the test hands out one by one. */
function source() {
  const asked: Deferred[] = [];
  const load = (_context: string, node: string) =>
    new Promise<NodeDetail>((resolve, reject) => asked.push({ resolve, reject, node }));
  return { asked, load };
}

function show(state: NodeDetailState) {
  return render(NodeDetailPanel, { props: { detailState: state, now: NOW } });
}

const omen = () => homelabDetail('omen')!;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('node detail panel', () => {
  it('says it is loading, then shows conditions, events newest first, pods and node facts', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'nuc1');
    show(state);
    expect(screen.getByTestId('detail-loading').textContent).toBe('Reading nuc1 from homelab…');
    src.asked[0]!.resolve(homelabDetail('nuc1')!);
    await vi.advanceTimersByTimeAsync(0);

    const conditions = screen.getAllByTestId('detail-condition');
    // The problem first, then the rest in the order the node reports them.
    expect(conditions.map((c) => c.dataset.type)).toEqual([
      'Ready',
      'MemoryPressure',
      'DiskPressure',
      'PIDPressure',
    ]);
    const ready = conditions[0]!;
    expect(ready.dataset.problem).toBe('true');
    expect(ready.classList.contains('problem')).toBe(true);
    expect(ready.textContent).toContain('NodeStatusUnknown');
    expect(ready.textContent).toContain('Kubelet stopped posting node status.');
    expect(ready.textContent).toContain('since 30 min ago · heartbeat 40 min ago');
    expect(conditions[1]!.dataset.problem).toBe('false');

    expect(screen.getAllByTestId('detail-event').map((e) => e.dataset.reason)).toEqual([
      'NodeNotReady',
      'InvalidDiskCapacity',
    ]);
    expect(screen.getAllByTestId('detail-event')[1]!.textContent).toContain('×3');
    const pod = screen.getByTestId('detail-pod');
    expect(pod.textContent).toContain('ml/nuc1-trainer-7d9c');
    expect(pod.textContent).toContain('Running');
    expect(pod.textContent).toContain('1 GPU');

    const gpu = screen.getByTestId('detail-gpu-facts').textContent;
    expect(gpu).toContain('RTX 4070 Laptop GPU (shared)');
    expect(gpu).toContain('550.127.05');
    expect(gpu).toContain('time-slicing ×4');
    expect(gpu).toContain('written 41 min ago');
    expect(screen.getByTestId('detail-gpu-problems').textContent).toContain('capacity 4 but allocatable 0');
    expect(screen.getByTestId('detail-system').textContent).toContain('containerd://1.7.22');
    expect(screen.getByTestId('detail-taints').textContent).toContain(
      'node.kubernetes.io/unreachable:NoExecute',
    );
    // Not cordoned, yet tainted NoExecute: the scheduler keeps new pods off and evicts running ones.
    expect(screen.getByTestId('detail-cordon').textContent).toBe(
      'Not schedulable, and pods already running without a toleration are evicted: taints node.kubernetes.io/unreachable:NoSchedule and node.kubernetes.io/unreachable:NoExecute.',
    );
  });

  it('shows each part that could not be read as one sentence, and the rest', async () => {
    const state = new NodeDetailState(
      async () => homelabDetail('omen', { events: [], partial: ['Events could not be read: forbidden.'] })!,
    );
    state.open('homelab', 'omen');
    show(state);
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getAllByTestId('detail-partial').map((p) => p.textContent)).toEqual([
      'Events could not be read: forbidden.',
    ]);
    expect(screen.getByText('No recent events for this node.')).toBeTruthy();
    expect(screen.getByTestId('detail-cordon').textContent).toContain('Cordoned');
  });

  it('says why it failed in words and tries again on request', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'ghost');
    show(state);
    src.asked[0]!.reject(new Error('node "ghost" not found'));
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not read ghost in homelab: node "ghost" not found',
    );
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(src.asked).toHaveLength(2);
    expect(screen.getByTestId('detail-loading')).toBeTruthy();
  });

  it("shows the host's sentence as the bridge rejects it ({kind, message})", async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'ghost');
    show(state);
    src.asked[0]!.reject({ kind: 'not-found', message: 'homelab has no node named ghost.' });
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not read ghost in homelab: homelab has no node named ghost.',
    );
  });

  it('refreshes every 10 s while open, keeps the last answer when a refresh fails, and never piles up requests', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'omen');
    show(state);
    src.asked[0]!.resolve(omen());
    await vi.advanceTimersByTimeAsync(REFRESH_MS - 1);
    expect(src.asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(src.asked).toHaveLength(2);
    // The second answer is slow: the next tick must not ask again.
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(src.asked).toHaveLength(2);
    src.asked[1]!.reject(new Error('connection refused'));
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.getByTestId('detail-stale').textContent).toContain('connection refused');
    expect(screen.getAllByTestId('detail-condition')).toHaveLength(4);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('closes on Esc, clears its timer, and asks no more', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'omen');
    show(state);
    src.asked[0]!.resolve(omen());
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await fireEvent.keyDown(screen.getByTestId('node-detail'), { key: 'Escape' });
    expect(state.isOpen).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 5);
    expect(src.asked).toHaveLength(1);
  });

  it('drops an answer that arrives after it was closed or switched to another node', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.open('homelab', 'omen');
    state.open('homelab', 'nuc1');
    expect(src.asked.map((a) => a.node)).toEqual(['omen', 'nuc1']);
    src.asked[0]!.resolve(omen());
    await vi.advanceTimersByTimeAsync(0);
    expect(state.detail).toBeNull();
    src.asked[1]!.resolve(homelabDetail('nuc1')!);
    await vi.advanceTimersByTimeAsync(0);
    expect(state.detail?.name).toBe('nuc1');
    expect(vi.getTimerCount()).toBe(1);
    state.close();
    state.open('homelab', 'omen');
    state.close();
    src.asked[2]!.resolve(omen());
    await vi.advanceTimersByTimeAsync(0);
    expect(state.detail).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pauses while the window is hidden and reads at once when it is shown again', async () => {
    const src = source();
    const state = new NodeDetailState(src.load);
    state.setVisible(false);
    state.open('homelab', 'omen');
    expect(src.asked).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    state.setVisible(true);
    expect(src.asked).toHaveLength(1);
    src.asked[0]!.resolve(omen());
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(src.asked).toHaveLength(2);
    src.asked[1]!.resolve(omen());
    state.setVisible(false);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(src.asked).toHaveLength(2);
    state.close();
    state.setVisible(true);
    expect(src.asked).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops refreshing when the panel is destroyed while open', async () => {
    const state = new NodeDetailState(async () => omen());
    state.open('homelab', 'omen');
    const { unmount } = show(state);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    expect(state.isOpen).toBe(false);
  });

  it('moves focus into the dialog and keeps Tab inside it', async () => {
    const state = new NodeDetailState(async () => {
      throw new Error('timeout');
    });
    state.open('homelab', 'omen');
    show(state);
    await vi.advanceTimersByTimeAsync(0);
    const dialog = screen.getByRole('dialog', { name: 'omen' });
    const close = within(dialog).getByTestId('detail-close');
    const retry = within(dialog).getByRole('button', { name: 'Try again' });
    expect(document.activeElement).toBe(close);
    await fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(retry);
    await fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    state.close();
  });
});
