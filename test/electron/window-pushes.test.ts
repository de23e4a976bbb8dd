/**
 * What crosses to the desktop window, end to end through the engine host and main: a node flip as one
 * small `fleet:delta`, and no whole snapshot pushed (a window reads its own by invoke); and while no
 * window exists, the host sends main no window pushes at all (the tray still follows the fleet).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let sim: RunningSim;
let double: ElectronDouble;
/** `push` messages the live host sent main, counted from the start. */
let hostPushes = 0;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-pushes-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig, {
    contexts: ['sim-admin'],
    alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0 },
  });
  double.utilityProcesses[0]?.on('message', (m: { type?: string }) => {
    if (m.type === 'push') hostPushes++;
  });
});
afterAll(async () => {
  await double?.close();
  await sim?.close();
});

const tray = () => double.trays[0]?.tooltip ?? '';

it('sends no window pushes while no window exists, though the tray follows the fleet', async () => {
  expect(tray()).toContain('4/4');
  sim.control.setNodeReady('omen', 'False');
  await pollUntil(() => tray().includes('3/4'), 'the drop in the tray');
  sim.control.setNodeReady('omen', 'True');
  await pollUntil(() => tray().includes('4/4'), 'the recovery in the tray');
  expect(hostPushes).toBe(0);
});

it('pushes an open window a node flip as one small delta, and no whole snapshot', async () => {
  double.trays[0]?.menu.find((i) => i.label === 'Open GPU Fleet')?.click?.();
  const contents = double.windows[0]?.webContents;
  if (!contents) throw new Error('no window');
  await pollUntil(() => contents.subscribed, 'the page');
  const fleetPushes = () => contents.delivered.filter((p) => p.channel.startsWith('fleet:'));

  const before = fleetPushes().length;
  sim.control.setNodeReady('omen', 'False');
  await pollUntil(() => tray().includes('3/4'), 'the drop in the tray');
  await pollUntil(() => fleetPushes().length > before, 'the flip in the window');
  const flip = fleetPushes().slice(before);
  expect(flip.map((p) => p.channel)).toEqual(flip.map(() => 'fleet:delta'));
  for (const p of flip) expect(JSON.stringify(p.payload).length).toBeLessThan(2048);
  // The host published its whole snapshot long before the window existed: the window reads one itself.
  expect(contents.sent.filter((p) => p.channel === 'fleet:snapshot')).toEqual([]);
});
