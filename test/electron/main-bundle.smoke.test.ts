/** Smoke test: the built main bundle starts its lifecycle under Node with the Electron double. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadMainBundle } from './load-main.ts';

const bundle = '.vite/build/main.cjs';

describe('main bundle', () => {
  it('is built (run `npm run build` first)', () => {
    expect(existsSync(bundle)).toBe(true);
  });

  it('starts: tray, hardening and IPC routes are set up without throwing', async () => {
    const double = loadMainBundle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(double.trays).toHaveLength(1);
    expect(double.trays[0]?.tooltip).toMatch(/GPU Fleet/);
    const labels = double.trays[0]?.menu.map((item) => item.label ?? item.type);
    expect(labels).toContain('Quit');
    expect(double.handlers.has('app:info')).toBe(true);
    expect(double.permissionHandler).not.toBeNull();
  });

  it('answers IPC only from its own window', async () => {
    const double = loadMainBundle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(double.invoke('app:info', 9999)).rejects.toThrow(/not our window/);
    const open = double.trays[0]?.menu.find((item) => item.label?.startsWith('Open'));
    open?.click?.();
    const win = double.windows[0];
    expect(win?.loaded).toMatch(/index\.html$/);
    const info = await double.invoke('app:info', win?.webContents.id ?? -1);
    expect(info).toMatchObject({ version: '0.0.0-test', mode: 'electron' });
    await expect(double.invoke('app:info', win?.webContents.id ?? -1, 'extra')).rejects.toThrow(/invalid/);
  });
});
