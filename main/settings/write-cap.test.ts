/** The settings file is never written larger than the next start reads: old alerts give way, or a sentence. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../common/settings.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { SETTINGS_MAX_BYTES } from './file.ts';
import { openSettings, SettingsError } from './store.ts';
import { fitToFile, settingsFileBytes } from './write-cap.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-write-cap-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A ready drop naming `nodes` nodes: the kind of alert that makes the log large. */
const drop = (i: number, nodes = 200): PolicyAlert => ({
  id: `lab:ready-drop:${i}`,
  at: new Date(i * 1000).toISOString(),
  context: 'lab',
  kind: 'ready-drop',
  title: `lab: ${nodes} GPU nodes down`,
  body: 'the rack lost power',
  nodes: Array.from({ length: nodes }, (_, n) => `gpu-node-${String(n).padStart(5, '0')}.rack-${i}`),
  before: nodes,
  after: 0,
});
const withLog = (n: number): Settings => ({
  ...defaultSettings(),
  alertLog: Array.from({ length: n }, (_, i) => drop(i)),
});

describe('fitToFile', () => {
  it('keeps a document that fits as it is', () => {
    const doc = withLog(3);
    expect(fitToFile(doc, settingsFileBytes(doc))).toEqual({ ok: true, doc, shed: 0 });
  });

  it('drops the fewest oldest alerts that bring the file under the cap, and keeps the newest', () => {
    const doc = withLog(40);
    const max = Math.floor(settingsFileBytes(doc) * 0.6);
    const fitted = fitToFile(doc, max);
    if (!fitted.ok) throw new Error(fitted.message);
    expect(fitted.shed).toBeGreaterThan(0);
    expect(settingsFileBytes(fitted.doc)).toBeLessThanOrEqual(max);
    // One fewer dropped would not fit: no alert was dropped that did not have to be.
    expect(settingsFileBytes({ ...doc, alertLog: doc.alertLog.slice(fitted.shed - 1) })).toBeGreaterThan(max);
    expect(fitted.doc.alertLog.at(-1)?.id).toBe('lab:ready-drop:39');
    expect(fitted.doc.alertLog[0]?.id).toBe(`lab:ready-drop:${fitted.shed}`);
  });

  it('refuses, in a sentence, a document too large even without the alert log', () => {
    const fitted = fitToFile(withLog(2), 200);
    expect(fitted).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^Settings could not be saved: they would take [\d.]+ MiB, more than the 0 MiB a settings file may hold, even without the alert log\.$/,
      ),
      size: expect.stringMatching(/^[\d.]+ MiB$/),
      max: '0 MiB',
    });
  });

  it('caps at what the next start reads', () => {
    const fitted = fitToFile(withLog(1));
    expect(fitted.ok && fitted.shed).toBe(0);
    expect(SETTINGS_MAX_BYTES).toBe(32 << 20);
  });
});

describe('the settings store under the cap', () => {
  it('measures the file as conf writes it, and writes no more than the cap', () => {
    const cwd = tempDir();
    const s = openSettings({ cwd });
    s.update({ alertLog: withLog(10).alertLog });
    expect(fs.statSync(s.path).size).toBe(settingsFileBytes(s.all()));

    const max = Math.floor(settingsFileBytes(withLog(30)) * 0.5);
    const capped = openSettings({ cwd, maxFileBytes: max });
    capped.update({ alertLog: withLog(30).alertLog });
    expect(fs.statSync(capped.path).size).toBeLessThanOrEqual(max);
    const again = openSettings({ cwd });
    expect(again.notices).toEqual([]);
    expect(again.get('alertLog').at(-1)?.id).toBe('lab:ready-drop:29');
    expect(again.get('alertLog').length).toBeLessThan(30);
  });

  it('refuses an update too large to write, with the sentence, and writes nothing', () => {
    const cwd = tempDir();
    const s = openSettings({ cwd, maxFileBytes: 4096 });
    s.update({ theme: 'dark' });
    const before = fs.readFileSync(s.path, 'utf8');
    const huge = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`ctx-${i}`, { at: '2026-12-01T00:00:00Z', inventory: inv() }]),
    );
    let thrown: unknown;
    try {
      s.update({ lastKnown: huge, theme: 'light' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SettingsError);
    expect((thrown as Error).message).toMatch(
      /^Settings could not be saved: they would take .* even without/,
    );
    expect(fs.readFileSync(s.path, 'utf8')).toBe(before);
    expect(s.get('theme')).toBe('dark');
  });
});

function inv() {
  return {
    observed_at: '2026-12-01T00:00:00Z',
    total_gpu_nodes: 1,
    ready_gpu_nodes: 1,
    total_gpus: 1,
    nodes: [{ name: 'gpu-1', ready: true, product: null, count: 1, memory: null, workload: 'container' }],
  };
}
