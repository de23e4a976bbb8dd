/**
 * No lost messages to the window: a push sent right after the window is created (the tray's
 * "Settings…", a notification click) must reach the page, which subscribes only once it has loaded.
 * The Electron double drops pushes sent before the page says `renderer:ready`, as Electron does, so
 * these fail when main sends at once instead of holding the pushes (main/electron/push-queue.ts).
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble, WindowDoubleInstance } from './electron-double.ts';

let sim: RunningSim;
let double: ElectronDouble;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-ready-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig, {
    contexts: ['sim-admin'],
    alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 },
  });
});
afterAll(async () => {
  double?.app.quit();
  await sim?.close();
});

const tray = () => double.trays[0];
const clickTray = (label: string) =>
  tray()
    ?.menu.find((i) => i.label === label)
    ?.click?.();
/** The newest window once its page has loaded and subscribed. */
const loadedWindow = async (): Promise<WindowDoubleInstance> => {
  await pollUntil(() => double.windows.at(-1)?.webContents.subscribed ?? false, 'the page to load');
  const win = double.windows.at(-1);
  if (!win) throw new Error('no window');
  return win;
};
const closeAll = () => {
  for (const w of double.windows) (w as unknown as { close(): void }).close();
};

it('tray "Settings…" on a new window opens the settings view, not the overview', async () => {
  expect(double.windows).toHaveLength(0);
  clickTray('Settings…');
  const win = await loadedWindow();
  expect(win.webContents.delivered).toContainEqual({ channel: 'ui:show', payload: { view: 'settings' } });
  expect(win.webContents.lost).toEqual([]);
});

it('a notification click on a new window focuses its context and node', async () => {
  closeAll();
  sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
  await pollUntil(() => double.notifications.length > 0, 'the notification');
  const before = double.windows.length;
  double.notifications[0]?.emit('click');
  expect(double.windows).toHaveLength(before + 1);
  const win = await loadedWindow();
  expect(win.webContents.delivered).toContainEqual({
    channel: 'ui:focus',
    payload: { context: 'sim-admin', node: 'omen' },
  });
  expect(win.webContents.lost).toEqual([]);
});

it('holds pushes again while the page reloads, and delivers them in order once it is ready', async () => {
  const win = await loadedWindow();
  const contents = win.webContents;
  const started = once(contents, 'did-start-navigation');
  const reload = (win as unknown as { loadURL(url: string): Promise<void> }).loadURL(win.loaded ?? '');
  // The reload has begun: the old page is gone, the new one is not listening yet.
  await started;
  expect(contents.subscribed).toBe(false);
  const from = contents.delivered.length;
  tray()?.emit('click'); // opens (shows) the window: no push
  clickTray('Settings…');
  await reload;
  expect(contents.subscribed).toBe(true);
  expect(contents.lost).toEqual([]);
  expect(contents.delivered.slice(from).filter((m) => m.channel.startsWith('ui:'))).toEqual([
    { channel: 'ui:show', payload: { view: 'settings' } },
  ]);
});

it('keeps sending to the page through a subframe or same-document navigation', async () => {
  const win = await loadedWindow();
  const contents = win.webContents;
  contents.emit('did-start-navigation', { url: 'about:blank', isMainFrame: false, isSameDocument: false });
  contents.emit('did-start-navigation', { url: `${win.loaded}#x`, isMainFrame: true, isSameDocument: true });
  const from = contents.delivered.length;
  clickTray('Settings…');
  expect(contents.delivered.slice(from)).toEqual([{ channel: 'ui:show', payload: { view: 'settings' } }]);
});
