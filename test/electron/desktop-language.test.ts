/**
 * The tray and notifications speak the OS's language (app.getPreferredSystemLanguages), and a new
 * `language` setting applies to the tray at once, without a restart. Main bundle + Electron double + sim,
 * on a ManualClock as in desktop-alerts.test.ts.
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
const HOLD_DOWN_MS = 10_000;
const STEP_MS = 20;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-lang-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(
    kubeconfig,
    { contexts: ['sim-admin'], alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: HOLD_DOWN_MS } },
    { clock, stepMs: STEP_MS },
    ['ko-KR', 'en-US'],
  );
});
afterAll(async () => {
  double?.app.quit();
  await sim?.close();
});

const tray = () => double.trays[0];
const poll = async (check: () => boolean, what: string) => {
  await pollUntil(check, what, { everyMs: 20, limitMs: 5000, each: () => clock.advance(STEP_MS) });
  return check();
};

it('a Korean OS gets a Korean tray and Korean notifications; the node and reason stay as written', async () => {
  expect(
    await poll(() => tray()?.tooltip.includes('sim-admin — GPU 노드 4/4 Ready') ?? false, 'ko tray'),
  ).toBe(true);
  expect(tray()?.menu.map((i) => i.label)).toEqual(
    expect.arrayContaining(['GPU Fleet 열기', 'GPU Fleet 종료']),
  );

  sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'container runtime is down');
  expect(await poll(() => tray()?.tooltip.includes('3/4') ?? false, 'the drop')).toBe(true);
  clock.advance(HOLD_DOWN_MS);
  expect(await poll(() => double.notifications.length >= 1, 'the notification')).toBe(true);
  expect(double.notifications.map((n) => n.options.title)).toEqual(['sim-admin: GPU 노드 1개 다운']);
  expect(double.notifications[0]?.options.body).toBe(
    'omen: NotReady (container runtime is down). Ready GPU 노드 4 → 3.',
  );
});

it('switching the language setting redraws the tray in the new language at once', async () => {
  tray()?.emit('click');
  const id = double.windows[0]?.webContents.id ?? -1;
  await double.invoke('settings:update', id, { language: 'ja' });
  // No snapshot in between: the update itself redraws the tray.
  expect(tray()?.menu.map((i) => i.label)).toEqual(
    expect.arrayContaining(['GPU Fleet を開く', 'GPU Fleet を終了']),
  );
  await double.invoke('settings:update', id, { language: 'auto' });
  expect(tray()?.menu.map((i) => i.label)).toEqual(expect.arrayContaining(['GPU Fleet 열기']));
});
