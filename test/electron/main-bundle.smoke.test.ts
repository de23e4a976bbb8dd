/** Smoke test: the built main bundle starts its lifecycle under Node with the Electron double. */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../common/ipc.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startDesktop } from './desktop-harness.ts';
import type { ElectronDouble } from './electron-double.ts';

const bundle = '.vite/build/main.cjs';
let sim: RunningSim;
let kubeconfig: string;
let double: ElectronDouble;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-smoke-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  double = await startDesktop(kubeconfig);
});
afterAll(async () => {
  double?.app.quit();
  await sim?.close();
});

describe('main bundle', () => {
  it('is built (run `npm run build` first)', () => {
    expect(existsSync(bundle)).toBe(true);
  });

  it('starts: tray, hardening and every IPC route are set up without throwing', () => {
    expect(double.trays).toHaveLength(1);
    const lines = double.trays[0]?.tooltip.split('\n') ?? [];
    expect(lines[0]).toBe('GPU Fleet');
    expect(lines.at(-1)).toBe('sim-admin — 0/4 ready GPU nodes, 1 GPU');
    expect(double.trays[0]?.menu.map((item) => item.label)).toContain('Quit GPU Fleet');
    expect([...double.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(double.permissionHandler).not.toBeNull();
  });

  it('answers IPC only from its own window, and validates arguments', async () => {
    await expect(double.invoke('app:info', 9999)).rejects.toEqual({
      kind: 'refused',
      message: 'refused app:info: not our window',
    });
    double.trays[0]?.menu.find((item) => item.label === 'Open GPU Fleet')?.click?.();
    const win = double.windows[0];
    expect(win?.loaded).toBe('gpu-fleet://app/index.html');
    const id = win?.webContents.id ?? -1;
    // Before its page has arrived the window's frame shows nothing of ours: refused.
    await expect(double.invoke('app:info', id)).rejects.toMatchObject({ kind: 'refused' });
    await pollUntil(() => win?.webContents.subscribed ?? false, 'the page');
    expect(await double.invoke('app:info', id)).toMatchObject({
      version: '0.0.0-test',
      mode: 'electron',
      noKubeconfig: false,
    });
    await expect(double.invoke('app:info', id, 'extra')).rejects.toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/invalid/),
    });
    await expect(double.invoke('fleet:focus', id, 42)).rejects.toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/invalid/),
    });
  });

  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview'])(
    'denies %s and new windows for every web contents',
    (event) => {
      const contents = double.windows[0]?.webContents;
      const handler = contents?.windowOpenHandler as () => { action: string };
      expect(handler()).toEqual({ action: 'deny' });
      let prevented = false;
      contents?.emit(event, { preventDefault: () => (prevented = true) }, 'https://example.com');
      expect(prevented).toBe(true);
    },
  );

  it('registers its scheme as standard and secure before ready, and serves the built renderer', async () => {
    expect(double.privilegedSchemes).toEqual([
      {
        scheme: 'gpu-fleet',
        privileges: { standard: true, secure: true, supportFetchAPI: true },
        beforeReady: true,
      },
    ]);
    const handle = double.protocolHandlers.get('gpu-fleet');
    const res = await handle?.({ url: 'gpu-fleet://app/index.html' });
    expect(res?.status).toBe(200);
    expect(res?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res?.text()).toContain("default-src 'self'");
  });

  it.each([
    'gpu-fleet://app/%2e%2e/%2e%2e/package.json',
    'gpu-fleet://app/..%2f..%2fpackage.json',
    'gpu-fleet://app/%2e%2e%2f%2e%2e%2f%2e%2e%2fbuild/main.cjs',
    'gpu-fleet://other/index.html',
    'gpu-fleet://app/%ff',
  ])('refuses %s (no path out of the renderer folder, no other host)', async (url) => {
    const res = await double.protocolHandlers.get('gpu-fleet')?.({ url });
    expect(res?.status).toBeGreaterThanOrEqual(400);
    expect(await res?.text()).not.toContain('"name"');
  });

  it('refuses IPC from a subframe or a page of another origin inside our window', async () => {
    const win = double.windows[0];
    const id = win?.webContents.id ?? -1;
    for (const senderFrame of [
      { url: 'gpu-fleet://app/index.html', parent: { url: 'gpu-fleet://app/index.html', parent: null } },
      { url: 'https://example.com/', parent: null },
      { url: 'file:///index.html', parent: null },
    ]) {
      await expect(double.replyFrom('app:info', { sender: { id }, senderFrame })).resolves.toEqual({
        ok: false,
        error: { kind: 'refused', message: 'refused app:info: not our window' },
      });
    }
  });
});
