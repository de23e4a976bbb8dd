/**
 * The engine host dies (a real SIGKILL of its process) while the app runs: the tray says so at once, the
 * open window is told, the shell starts a new host after the backoff, and the tray, the window and IPC
 * recover without a restart of the app. Then the app quits cleanly: the host exits when asked.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let sim: RunningSim;
let double: ElectronDouble;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-restart-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig, { contexts: ['sim-admin'] });
});
afterAll(async () => {
  await double?.close();
  await sim?.close();
});

const tray = () => double.trays[0];
const live = () => double.utilityProcesses.filter((u) => u.exitCode === undefined);
const READY = 'sim-admin — 4/4 ready GPU nodes';

it('restarts a killed engine host, and the tray, the window and IPC recover', async () => {
  expect(tray()?.tooltip).toContain(READY);
  tray()
    ?.menu.find((i) => i.label === 'Open GPU Fleet')
    ?.click?.();
  const contents = double.windows[0]?.webContents;
  if (!contents) throw new Error('no window');
  await pollUntil(() => contents.subscribed, 'the page');
  const id = contents.id;
  expect(await double.invoke('app:info', id)).toMatchObject({ mode: 'electron' });

  const [first] = live();
  expect(live()).toHaveLength(1);
  first?.kill();
  await pollUntil(() => first?.exitCode !== undefined, 'the host to die');
  expect(first?.exitCode).toBeNull();

  // The tray says so at once, over the last counts, with the unreachable icon: nothing is watched now.
  expect(tray()?.tooltip.split('\n')[1]).toBe('The engine stopped unexpectedly; restarting (attempt 1)');
  expect(tray()?.tooltip).toContain(READY);
  expect(tray()?.image).toMatchObject({ path: expect.stringMatching(/unreachable\.png$/) });
  expect(tray()?.menu[0]).toEqual({
    label: 'The engine stopped unexpectedly; restarting (attempt 1)',
    enabled: false,
  });
  const notices = () =>
    contents.delivered
      .filter((p) => p.channel === 'app:notice')
      .map((p) => (p.payload as { message: string }).message);
  expect(notices()).toContain(
    'The GPU Fleet engine stopped unexpectedly and is restarting; the window shows the last state it had.',
  );
  const pushesBefore = contents.delivered.length;

  // A new host, and everything back without restarting the app.
  await pollUntil(() => live().length === 1 && double.utilityProcesses.length === 2, 'a new host');
  // Recovered: no engine line any more, the free-GPU headline and the context's line as before the crash.
  const recovered = () => {
    const lines = (tray()?.tooltip ?? '').split('\n');
    return lines.length === 3 && lines[0] === 'GPU Fleet' && lines[2] === `${READY}, 1 GPU`;
  };
  await pollUntil(recovered, 'the tray to recover', {
    limitMs: 15_000,
  });
  expect(tray()?.image).toMatchObject({ path: expect.stringMatching(/all-ready\.png$/) });
  await pollUntil(() => notices().includes('The GPU Fleet engine is running again.'), 'the window told');
  await pollUntil(
    () => contents.delivered.slice(pushesBefore).some((p) => p.channel === 'fleet:snapshot'),
    'a fresh snapshot for the window',
  );
  expect(await double.invoke('app:info', id)).toMatchObject({ mode: 'electron' });
  const snapshot = (await double.invoke('fleet:snapshot', id)) as {
    contexts: { context: string; inventory: { ready_gpu_nodes: number } | null }[];
  };
  expect(snapshot.contexts.map((c) => [c.context, c.inventory?.ready_gpu_nodes])).toEqual([['sim-admin', 4]]);
});

it('quits cleanly: the host saves and exits when asked, and no new one starts', async () => {
  const [host] = live();
  await double.close();
  expect(host?.exitCode).toBe(0);
  expect(live()).toEqual([]);
  expect(double.app.quitCalled).toBe(true);
});

it('lets a system shutdown quit at once, asking the host to stop without holding the quit back', async () => {
  const kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-shutdown-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  const app = await startDesktop(kubeconfig, { contexts: ['sim-admin'] });
  const host = app.utilityProcesses.at(-1);
  app.powerMonitor.emit('shutdown');
  app.app.quit();
  expect(app.app.quitCalled).toBe(true);
  await pollUntil(() => host?.exitCode !== undefined, 'the host to exit');
  expect(host?.exitCode).toBe(0);
});
