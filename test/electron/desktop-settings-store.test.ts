/**
 * The desktop app's engine host writes the settings file through electron-store (its Electron utility
 * process, main/engine-host/settings-backend.ts) into the folder main gave it (app.getPath('userData')),
 * and the CLI's store (conf, main/settings/store.ts) reads the same values back from that settings.json.
 * electron-store in a utility process has no `app` to find userData with: given a relative folder it
 * refuses to save, and the host says so in its log, where conf would have written. Main bundle + engine
 * host bundle + Electron double (the host's `require('electron')` gets the utility module) + sim.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings } from '../../main/settings/store.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

let sim: RunningSim;
let kubeconfig: string;
const temps: string[] = [];
const tempDir = (tag: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gpu-fleet-estore-${tag}-`));
  temps.push(dir);
  return dir;
};

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  kubeconfig = path.join(tempDir('kube'), 'config');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sim?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Opens the window from the tray and waits for its page, so invokes pass the sender check. */
async function openWindow(double: ElectronDouble): Promise<number> {
  double.trays[0]?.menu.find((i) => i.label === 'Open GPU Fleet')?.click?.();
  await pollUntil(() => double.windows[0]?.webContents.subscribed === true, 'the page');
  return double.windows[0]?.webContents.id ?? -1;
}

describe('with the folder main gives the host (userData)', () => {
  let double: ElectronDouble;
  beforeAll(async () => {
    double = await startDesktop(kubeconfig, { contexts: ['sim-admin'] });
    temps.push(double.userData);
  });
  afterAll(async () => {
    await double?.close();
  });

  it('saves through electron-store into settings.json there, and the CLI store reads it back', async () => {
    const id = await openWindow(double);
    await double.invoke('settings:update', id, { language: 'ko', launchAtLogin: true });

    // One file, the one conf reads: electron-store's own default name would have made config.json.
    expect(readdirSync(double.userData).filter((f) => f.endsWith('.json'))).toEqual(['settings.json']);
    const cli = openSettings({ cwd: double.userData });
    expect(cli.notices).toEqual([]);
    expect(cli.all()).toMatchObject({ language: 'ko', launchAtLogin: true, contexts: ['sim-admin'] });
    expect(JSON.parse(readFileSync(cli.path, 'utf8'))).toEqual(cli.all());
  });
});

describe('with a relative folder (electron-store in a utility process needs an absolute one)', () => {
  let double: ElectronDouble;
  let target: string;
  beforeAll(async () => {
    target = tempDir('relative');
    const relative = path.relative(process.cwd(), target);
    double = await startDesktop(kubeconfig, { contexts: ['sim-admin'] }, undefined, undefined, (d) => {
      const logs = d.userData;
      d.app.getPath = (name: string) => (name === 'userData' ? relative : logs);
    });
    temps.push(double.userData);
  });
  afterAll(async () => {
    await double?.close();
  });

  it('writes nothing there and logs why (conf would have resolved it and written)', async () => {
    const log = path.join(double.userData, 'gpu-fleet.log');
    const unsaved = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('Settings cannot be saved'));
    await pollUntil(() => unsaved().length > 0, 'the settings notice in the log');
    expect(unsaved()[0]).toContain(
      'Electron Store: You can only use this module from the Electron main process or the renderer process, unless you pass an absolute `cwd`.',
    );
    const id = await openWindow(double);
    await double.invoke('settings:update', id, { language: 'ja' });
    // No settings file there (the timeline database, which is not the settings store, may be).
    expect(readdirSync(target).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
