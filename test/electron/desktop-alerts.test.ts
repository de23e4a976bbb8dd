/**
 * The desktop app end to end under Node: main bundle + Electron double + sim. A drop of ready GPU
 * nodes gives exactly one notification after the hold-down, the tray changes, and a click focuses the
 * context. No payload that reaches the window carries credentials. The app runs on a ManualClock: the
 * test waits (real time, capped) only for the sim's answers and runs the hold-down out itself.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let sim: RunningSim;
let double: ElectronDouble;
const clock = new ManualClock();
/** Virtual hold-down; waits for the sim move virtual time by STEP_MS per real poll, far less than this. */
const HOLD_DOWN_MS = 10_000;
const STEP_MS = 20;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-desk-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(
    kubeconfig,
    {
      contexts: ['sim-admin', 'sim-readonly'],
      // Two users of one sim, kept apart: each context alerts and notifies on its own here.
      mergeSameCluster: false,
      alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: HOLD_DOWN_MS },
    },
    { clock, stepMs: STEP_MS },
  );
});
afterAll(async () => {
  double?.app.quit();
  await sim?.close();
});

const tray = () => double.trays[0];
/** Waits for the sim's answers; the app's snapshot throttle (50 ms) needs virtual time to pass too. */
const poll = async (check: () => boolean, what: string) => {
  await pollUntil(check, what, { everyMs: 20, limitMs: 5000, each: () => clock.advance(STEP_MS) });
  return check();
};

it('notifies once after the hold-down, changes the tray, and focuses the context on click', async () => {
  expect(await poll(() => tray()?.tooltip.includes('sim-readonly — 4/4') ?? false, 'all ready')).toBe(true);
  expect(tray()?.image).toMatchObject({ path: expect.stringMatching(/all-ready\.png$/) });

  sim.control.setNodeReady(
    'omen',
    'False',
    'KubeletNotReady',
    'container runtime <containerd> & cni are down',
  );
  const flippedAt = clock.now();
  expect(await poll(() => tray()?.tooltip.includes('sim-admin — 3/4') ?? false, 'the drop')).toBe(true);
  expect(await poll(() => tray()?.tooltip.includes('sim-readonly — 3/4') ?? false, 'the drop')).toBe(true);
  expect(tray()?.image).toMatchObject({ path: expect.stringMatching(/degraded\.png$/) });
  // Still inside the hold-down (the waits above moved virtual time by well under HOLD_DOWN_MS).
  expect(clock.now() - flippedAt).toBeLessThan(HOLD_DOWN_MS);
  expect(double.notifications).toHaveLength(0);

  clock.advance(HOLD_DOWN_MS);
  expect(await poll(() => double.notifications.length >= 2, 'the notifications')).toBe(true);
  clock.advance(HOLD_DOWN_MS); // and another hold-down: nothing more
  // One per monitored context (both watch the same cluster), never more.
  expect(double.notifications.map((n) => n.options.title).sort()).toEqual([
    'sim-admin: 1 GPU node down',
    'sim-readonly: 1 GPU node down',
  ]);
  // libnotify reads a Linux body as markup: the cluster's `<` and `&` arrive escaped there, as written elsewhere.
  expect(double.notifications[0]?.options.body).toContain(
    process.platform === 'linux'
      ? 'omen: NotReady (container runtime &lt;containerd&gt; &amp; cni are down)'
      : 'omen: NotReady (container runtime <containerd> & cni are down)',
  );
  // Tagged with the alert id (as browser mode's notification is), grouped per context.
  for (const n of double.notifications) {
    const context = n.options.title.split(':')[0];
    expect(n.options).toMatchObject({
      groupId: context,
      id: expect.stringMatching(new RegExp(`^${context}:ready-drop:`)),
    });
  }
  // The free-GPU headline first, then each context line with a disabled line naming its down GPU node and why.
  const labels = tray()?.menu.map((i) => i.label) ?? [];
  expect(labels[0]).toMatch(/free GPU/i);
  const first = labels.indexOf('sim-admin — 3/4 ready GPU nodes, 1 GPU');
  expect(labels.slice(first, first + 4)).toEqual([
    'sim-admin — 3/4 ready GPU nodes, 1 GPU',
    '    omen — NotReady (container runtime <containerd> & cni are down)',
    'sim-readonly — 3/4 ready GPU nodes, 1 GPU',
    '    omen — NotReady (container runtime <containerd> & cni are down)',
  ]);

  const readonly = double.notifications.find((n) => n.options.title.startsWith('sim-readonly'));
  readonly?.emit('click');
  const win = double.windows[0];
  expect(win?.visible).toBe(true);
  // The page loads after the click; the focus waits for it (test/electron/window-ready.test.ts).
  expect(await poll(() => win?.webContents.subscribed ?? false, 'the page')).toBe(true);
  expect(win?.webContents.delivered).toContainEqual({
    channel: 'ui:focus',
    payload: { context: 'sim-readonly', node: 'omen' },
  });
  const snapshot = (await double.invoke('fleet:snapshot', win?.webContents.id ?? -1)) as { focused: string };
  expect(snapshot.focused).toBe('sim-readonly');
});

it('never sends tokens, keys or certificate data to the window', async () => {
  // Runs alone too: open the window if the first test did not.
  if (!double.windows[0])
    tray()
      ?.menu.find((item) => item.label === 'Open GPU Fleet')
      ?.click?.();
  const id = double.windows[0]?.webContents.id ?? -1;
  // Something the window is pushed: a focus change makes a snapshot.
  await double.invoke('fleet:focus', id, 'sim-admin');
  expect(await poll(() => (double.windows[0]?.webContents.sent.length ?? 0) > 0, 'a push')).toBe(true);
  const answers = await Promise.all(
    ['fleet:snapshot', 'contexts:list', 'alerts:log', 'settings:get', 'app:info'].map((c) =>
      double.invoke(c, id),
    ),
  );
  const pushed = double.windows.flatMap((w) => w.webContents.sent.map((s) => s.payload));
  const text = JSON.stringify([answers, pushed]);
  for (const secret of [
    sim.tokens.admin,
    sim.tokens.readonly,
    sim.tokens.revocable,
    sim.caPem.split('\n')[1] ?? 'x',
  ]) {
    expect(text).not.toContain(secret);
  }
  expect(text).not.toMatch(
    /BEGIN (CERTIFICATE|PRIVATE KEY|EC PRIVATE KEY)|certificate-authority-data|client-key-data|"token"/,
  );
  expect(pushed.length).toBeGreaterThan(0);
});

it('pauses one cluster from the tray: its line says so, the other cluster still alerts, and it resumes', async () => {
  const pauseMenu = () => tray()?.menu.find((i) => i.label === 'Pause alerts')?.submenu ?? [];
  pauseMenu()
    .find((i) => i.label === 'sim-admin')
    ?.submenu?.find((i) => i.label === 'For 1 hour')
    ?.click?.();
  expect(
    await poll(
      () => tray()?.tooltip.includes('sim-admin — 3/4 ready GPU nodes, 1 GPU · alerts paused') ?? false,
      'the pause',
    ),
  ).toBe(true);
  expect(tray()?.tooltip).toMatch(/^sim-readonly — 3\/4 ready GPU nodes, 1 GPU$/m);
  // A drop now notifies the unpaused cluster only.
  const before = double.notifications.length;
  sim.control.setNodeReady('nuc1', 'False', 'KubeletNotReady', 'kubelet stopped');
  expect(await poll(() => tray()?.tooltip.includes('sim-readonly — 2/4') ?? false, 'the second drop')).toBe(
    true,
  );
  clock.advance(HOLD_DOWN_MS);
  expect(await poll(() => double.notifications.length > before, 'the notification')).toBe(true);
  clock.advance(HOLD_DOWN_MS);
  expect(double.notifications.slice(before).map((n) => n.options.title)).toEqual([
    'sim-readonly: 1 GPU node down',
  ]);

  const resume = pauseMenu().find((i) =>
    (i.label ?? '').startsWith('Resume alerts for sim-admin (paused until '),
  );
  expect(resume).toBeDefined();
  resume?.click?.();
  expect(await poll(() => !(tray()?.tooltip.includes('alerts paused') ?? true), 'the resume')).toBe(true);
  sim.control.setNodeReady('nuc1', 'True');
});
