import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../common/alerts.ts';
import App from './App.svelte';
import { createFakeFleet, type FakeFleet } from './fixtures/fake-fleet.ts';
import { fleet, homelab, iso, mixedFleet, NOW } from './fixtures/homelab.ts';

afterEach(() => {
  delete window.fleet;
  delete document.documentElement.dataset.theme;
});

function start(fake: FakeFleet) {
  window.fleet = fake.api;
  return render(App, { props: { now: () => NOW } });
}

const cards = () => screen.getAllByTestId('context-card');
const card = (name: string) => cards().find((c) => c.dataset.context === name)!;
const focusButton = (name: string) => within(card(name)).getByTestId('card-focus');
const pressed = (name: string) => focusButton(name).getAttribute('aria-pressed');

describe('overview', () => {
  it('orders cards worst first and shows ready/total, GPUs and the state in words', async () => {
    start(createFakeFleet(mixedFleet()));
    await screen.findAllByTestId('context-card');
    expect(cards().map((c) => c.dataset.context)).toEqual([
      'office',
      'homelab',
      'gpu-cloud',
      'new-cluster',
      'workstation',
    ]);
    const home = card('homelab');
    expect(within(home).getByTestId('card-ready').textContent).toBe('0/4');
    expect(home.textContent).toContain('1 GPU');
    expect(within(home).getByTestId('state-label').textContent).toBe('Live');
    expect(within(card('gpu-cloud')).getByTestId('card-ready').textContent).toBe('1/2');
  });

  it('never shows an unreachable context as 0 ready: last inventory, greyed, with the state and stale age', async () => {
    start(createFakeFleet(mixedFleet()));
    const office = (await screen.findAllByTestId('context-card'))[0]!;
    expect(within(office).getByTestId('card-ready').textContent).toBe('2/3');
    expect(office.classList.contains('greyed')).toBe(true);
    expect(office.textContent).toContain('last known');
    expect(within(office).getByTestId('state-label').textContent).toBe(
      'Unreachable · dial tcp 10.0.0.5:6443: connect: connection refused',
    );
    expect(within(office).getByTestId('stale').textContent).toBe('stale · 3 min');
  });

  it('shows a dash, not 0, for an unreachable context with no inventory, and progress while connecting', async () => {
    const snap = mixedFleet();
    const office = snap.contexts.find((c) => c.context === 'office')!;
    office.inventory = null;
    start(createFakeFleet(snap));
    await screen.findAllByTestId('context-card');
    expect(within(card('office')).getByTestId('card-ready').textContent).toBe('–');
    expect(screen.getByRole('progressbar', { name: 'Connecting to new-cluster' })).toBeTruthy();
  });

  it('focuses a context on click and on its number key', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    await fireEvent.click(focusButton('workstation'));
    await waitFor(() => expect(pressed('workstation')).toBe('true'));
    expect(fake.calls.filter((c) => c.channel === 'fleet:focus').map((c) => c.args)).toEqual([
      ['workstation'],
    ]);

    await fireEvent.keyDown(window, { key: '2' });
    await waitFor(() => expect(pressed('homelab')).toBe('true'));
    expect(pressed('workstation')).toBe('false');
    expect(fake.calls.at(-1)).toEqual({ channel: 'fleet:focus', args: ['homelab'] });
  });

  it('follows pushed snapshots', async () => {
    const fake = createFakeFleet(fleet([homelab()]));
    start(fake);
    await screen.findAllByTestId('context-card');
    const next = homelab();
    next.inventory!.ready_gpu_nodes = 3;
    fake.emit('fleet:snapshot', fleet([next]));
    await waitFor(() => expect(screen.getByTestId('card-ready').textContent).toBe('3/4'));
  });

  it('follows pushed deltas, and after a lost one reads one snapshot', async () => {
    const fake = createFakeFleet(fleet([homelab()]));
    start(fake);
    await screen.findAllByTestId('context-card');
    const reads = () => fake.calls.filter((c) => c.channel === 'fleet:snapshot').length;
    const withReady = (n: number) => {
      const ctx = homelab();
      return fleet([{ ...ctx, inventory: { ...ctx.inventory!, ready_gpu_nodes: n } }]);
    };
    fake.publish(withReady(3));
    await waitFor(() => expect(screen.getByTestId('card-ready').textContent).toBe('3/4'));
    expect(reads()).toBe(1);
    fake.publish(withReady(2), true);
    fake.publish(withReady(1));
    await waitFor(() => expect(screen.getByTestId('card-ready').textContent).toBe('1/4'));
    expect(reads()).toBe(2);
  });

  it('clears a pending focus the host confirms without a push (it was focused already)', async () => {
    const fake = createFakeFleet(fleet([homelab(), { ...homelab(), context: 'office' }], 'homelab'));
    start(fake);
    await screen.findAllByTestId('context-card');
    await fireEvent.click(focusButton('homelab'));
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'fleet:focus')).toBe(true));
    // The tray then focuses another context: the window follows it.
    fake.publish({ ...fake.state.snapshot, focused: 'office' });
    await waitFor(() => expect(pressed('office')).toBe('true'));
  });
});

describe('what is wrong, and the node detail', () => {
  const downLines = (name: string) =>
    within(card(name))
      .queryAllByTestId('card-down-node')
      .map((l) => l.textContent?.replace(/\s+/g, ' ').trim());

  it('names the down GPU nodes with reason and age on the card, without a click', async () => {
    start(createFakeFleet(mixedFleet()));
    await screen.findAllByTestId('context-card');
    expect(downLines('homelab')).toEqual([
      'nuc1 — kubelet stopped posting node status · 30 min',
      'nuc2 — kubelet stopped posting node status · 30 min',
      'omen — kubelet stopped posting node status · 30 min',
      'omen2 — kubelet stopped posting node status · 30 min',
    ]);
    expect(
      within(card('homelab'))
        .getAllByTestId('card-problem')
        .map((p) => p.dataset.node),
    ).toEqual(['nuc1', 'nuc2']);
    expect(downLines('workstation')).toEqual([]);
    expect(within(card('workstation')).queryByTestId('card-issues')).toBeNull();
  });

  it('opens a node named on the card; Esc closes it and gives focus back', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    const omen = within(card('homelab')).getByRole('button', { name: 'omen' });
    omen.focus();
    await fireEvent.click(omen);
    const dialog = await screen.findByRole('dialog', { name: 'omen' });
    expect(fake.calls).toContainEqual({ channel: 'node:detail', args: ['homelab', 'omen'] });
    await waitFor(() => expect(within(dialog).getAllByTestId('detail-condition')).toHaveLength(4));
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Number keys do not switch clusters behind an open detail.
    await fireEvent.keyDown(document.activeElement!, { key: '1' });
    expect(fake.calls.filter((c) => c.channel === 'fleet:focus')).toEqual([]);
    await fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(omen));
  });

  it('opens the detail from a node row of the table', async () => {
    const fake = createFakeFleet(fleet([homelab()]));
    start(fake);
    await fireEvent.click(await screen.findByTestId('tab-nodes'));
    const row = (await screen.findAllByTestId('node-row')).find((r) => r.dataset.node === 'nuc2')!;
    row.focus();
    await fireEvent.keyDown(row, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: 'nuc2' });
    await waitFor(() => expect(within(dialog).getAllByTestId('detail-event')).toHaveLength(2));
    await fireEvent.click(within(dialog).getByTestId('detail-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(row));
  });

  it('opens the detail of the pushed node after a notification click', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    fake.emit('ui:focus', { context: 'homelab', node: 'omen2' });
    expect((await screen.findByRole('dialog', { name: 'omen2' })).dataset.node).toBe('omen2');
    expect(fake.calls).toContainEqual({ channel: 'node:detail', args: ['homelab', 'omen2'] });
  });

  it('says in words when the node cannot be read', async () => {
    const fake = createFakeFleet(fleet([homelab()]));
    fake.state.detail = () => {
      throw new Error('nodes "omen" is forbidden');
    };
    start(fake);
    await screen.findAllByTestId('context-card');
    await fireEvent.click(within(card('homelab')).getByRole('button', { name: 'omen' }));
    expect((await screen.findByTestId('detail-error')).textContent).toBe(
      'Could not read omen in homelab: nodes "omen" is forbidden',
    );
  });
});

describe('alerts', () => {
  const alert = (id: string, minutesAgo: number): Alert => ({
    id,
    at: iso(minutesAgo * 60_000),
    context: 'homelab',
    kind: 'ready-drop',
    title: `GPU nodes down (${id})`,
    body: '4 → 0 ready GPU nodes',
    nodes: [],
    before: 4,
    after: 0,
  });

  it('loads the log and puts a pushed alert first', async () => {
    const fake = createFakeFleet(mixedFleet(), { alerts: [alert('a', 10), alert('b', 5)] });
    start(fake);
    await fireEvent.click(await screen.findByTestId('tab-alerts'));
    await waitFor(() => expect(screen.getAllByTestId('alert-item')).toHaveLength(2));
    fake.emit('alerts:new', alert('c', 0));
    await waitFor(() => expect(screen.getAllByTestId('alert-item')).toHaveLength(3));
    const items = screen.getAllByTestId('alert-item');
    expect(items.map((i) => i.querySelector('.title')?.textContent)).toEqual([
      'GPU nodes down (c)',
      'GPU nodes down (b)',
      'GPU nodes down (a)',
    ]);
    expect(items[0]!.textContent).toContain('homelab');
    expect(items[0]!.textContent).toContain('4 → 0 ready GPU nodes');
  });
});

describe('empty and error states', () => {
  it('says so when no host is connected', async () => {
    render(App);
    expect((await screen.findByRole('alert')).textContent).toMatch(/not connected/);
  });

  it('offers the demo when there is no kubeconfig', async () => {
    const fake = createFakeFleet(fleet([]));
    fake.state.info = { ...fake.state.info, noKubeconfig: true };
    start(fake);
    const empty = await screen.findByTestId('empty-state');
    expect(empty.dataset.kind).toBe('no-kubeconfig');
    expect(empty.textContent).toContain('gpu-fleet serve --demo');
  });

  it('asks to choose clusters when none is monitored', async () => {
    start(createFakeFleet(fleet([])));
    expect((await screen.findByTestId('empty-state')).dataset.kind).toBe('none-monitored');
    await fireEvent.click(screen.getByRole('button', { name: 'Choose clusters' }));
    expect(await screen.findByTestId('settings-form')).toBeTruthy();
  });

  it('shows notices from app info and pushes as dismissible banners', async () => {
    const fake = createFakeFleet(mixedFleet());
    fake.state.info = { ...fake.state.info, notices: ['Settings file was corrupt; defaults restored.'] };
    start(fake);
    await screen.findByText('Settings file was corrupt; defaults restored.');
    fake.emit('app:notice', { level: 'error', message: 'kubeconfig has two contexts named lab' });
    await screen.findByText('kubeconfig has two contexts named lab');
    await fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss notice' })[0]!);
    await waitFor(() => expect(screen.getAllByTestId('notice')).toHaveLength(1));
  });
});

describe('navigation', () => {
  it('switches to the pushed context and highlights the node', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    fake.emit('ui:focus', { context: 'homelab', node: 'omen2' });
    const row = await waitFor(() => {
      const r = screen.getAllByTestId('node-row').find((x) => x.dataset.node === 'omen2');
      if (!r) throw new Error('row missing');
      return r;
    });
    expect(row.classList.contains('highlighted')).toBe(true);
    expect(screen.getByTestId('tab-nodes').getAttribute('aria-selected')).toBe('true');
  });

  it('moves between tabs with the arrow keys', async () => {
    start(createFakeFleet(mixedFleet()));
    const overview = await screen.findByTestId('tab-overview');
    await fireEvent.keyDown(overview, { key: 'ArrowRight' });
    expect(screen.getByTestId('tab-nodes').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByTestId('tab-nodes'));
    await fireEvent.keyDown(screen.getByTestId('tab-nodes'), { key: 'End' });
    expect(screen.getByTestId('tab-settings').getAttribute('aria-selected')).toBe('true');
  });

  it('applies the theme from settings', async () => {
    const fake = createFakeFleet(mixedFleet());
    fake.state.settings.theme = 'dark';
    start(fake);
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });
});

describe('alert pause', () => {
  it('pauses for an hour with alerts:snooze and resumes with alerts:resume', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    await fireEvent.click(screen.getByTestId('tab-alerts'));
    await fireEvent.click(await screen.findByRole('button', { name: 'Pause for 1 hour' }));
    await waitFor(() =>
      expect(fake.calls).toContainEqual({
        channel: 'alerts:snooze',
        args: [null, { kind: 'for', ms: 3_600_000 }],
      }),
    );
    fake.state.snapshot = { ...fake.state.snapshot, alertsPausedUntil: iso(-3_600_000) };
    fake.emit('fleet:snapshot', fake.state.snapshot);
    await fireEvent.click(await screen.findByRole('button', { name: 'Resume alerts' }));
    await waitFor(() => expect(fake.calls).toContainEqual({ channel: 'alerts:resume', args: [null] }));
  });
});

describe('renderer:ready', () => {
  it('says ready once, after it listens to every push the host may hold for it', async () => {
    const fake = createFakeFleet(mixedFleet());
    start(fake);
    await screen.findAllByTestId('context-card');
    expect(fake.readyWith).toHaveLength(1);
    expect([...(fake.readyWith[0] ?? [])].sort()).toEqual(
      [
        'alerts:new',
        'app:notice',
        'fleet:delta',
        'fleet:mark',
        'fleet:snapshot',
        'kubectl:contexts',
        'ui:focus',
        'ui:show',
      ].sort(),
    );
  });
});

describe('a card’s menu', () => {
  const menuOf = (name: string) => within(card(name)).getByTestId('card-menu');

  it('pauses that cluster only, says so on its card and in the header beside its health, and resumes it', async () => {
    const fake = createFakeFleet(fleet([homelab()]));
    start(fake);
    await screen.findAllByTestId('context-card');
    await fireEvent.click(menuOf('homelab'));
    await fireEvent.click(await screen.findByTestId('card-pause-resumed'));
    await waitFor(() =>
      expect(within(card('homelab')).getByTestId('card-paused').textContent).toContain(
        'Alerts paused until you resume',
      ),
    );
    expect(fake.calls.filter((c) => c.channel === 'alerts:snooze')).toEqual([
      { channel: 'alerts:snooze', args: ['homelab', { kind: 'until-resumed' }] },
    ]);
    // Health stays in the header; the pause is a second fact beside it.
    expect(screen.getByTestId('fleet-health-text').textContent).toBe('4 GPU nodes down');
    expect(screen.getByTestId('fleet-pause').textContent).toContain('alerts paused for homelab');
    await fireEvent.click(menuOf('homelab'));
    await fireEvent.click(await screen.findByTestId('card-resume'));
    await waitFor(() => expect(within(card('homelab')).queryByTestId('card-paused')).toBeNull());
  });

  it('switches kubectl only after a confirmation that names the context, and not on Cancel or Escape', async () => {
    const fake = createFakeFleet(fleet([homelab(), { ...homelab(), context: 'office' }]));
    fake.state.kubectl = { ...fake.state.kubectl, file: '~/.kube/config' };
    start(fake);
    await screen.findAllByTestId('context-card');
    expect(within(card('homelab')).getByTestId('card-kubectl-current')).toBeTruthy();
    const uses = () => fake.calls.filter((c) => c.channel === 'kubectl:use-context');

    await fireEvent.click(menuOf('office'));
    await fireEvent.click(await screen.findByTestId('card-kubectl'));
    const dialog = await screen.findByTestId('kubectl-confirm');
    expect(dialog.textContent).toContain('Switch kubectl to office?');
    expect(dialog.textContent).toContain('This sets current-context in ~/.kube/config');
    expect(document.activeElement).toBe(screen.getByTestId('kubectl-confirm-cancel'));
    await fireEvent.click(screen.getByTestId('kubectl-confirm-cancel'));
    expect(screen.queryByTestId('kubectl-confirm')).toBeNull();

    await fireEvent.click(menuOf('office'));
    await fireEvent.click(await screen.findByTestId('card-kubectl'));
    await fireEvent.keyDown(await screen.findByTestId('kubectl-confirm'), { key: 'Escape' });
    expect(screen.queryByTestId('kubectl-confirm')).toBeNull();
    expect(uses()).toEqual([]);

    await fireEvent.click(menuOf('office'));
    await fireEvent.click(await screen.findByTestId('card-kubectl'));
    await fireEvent.click(await screen.findByTestId('kubectl-confirm-ok'));
    await waitFor(() => expect(uses()).toEqual([{ channel: 'kubectl:use-context', args: ['office'] }]));
    await waitFor(() => expect(screen.getByTestId('kubectl-current').textContent).toBe('kubectl: office'));
  });
});
