/** The settings store on a temp folder: defaults, validated updates, persistence, the backend seam. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { openSettings, type SettingsBackend, SettingsError, type SettingsUpdate } from './store.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-settings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const inventory = {
  observed_at: '2026-11-29T21:40:00Z',
  total_gpu_nodes: 1,
  ready_gpu_nodes: 0,
  total_gpus: 1,
  nodes: [{ name: 'nuc1', ready: false, product: null, count: 0, memory: null, workload: 'vm-passthrough' }],
};

describe('settings store', () => {
  it('starts from defaults without writing, and persists updates for the next launch', () => {
    const cwd = tempDir();
    const s = openSettings({ cwd });
    expect(s.all()).toEqual(defaultSettings());
    expect(s.notices).toEqual([]);
    expect(fs.existsSync(s.path)).toBe(false);
    s.update({ contexts: ['home-lab'], writeBack: { 'home-lab': true }, theme: 'dark' });
    s.update({ lastKnown: { 'home-lab': { at: '2026-11-29T21:40:00Z', inventory } } });
    const again = openSettings({ cwd });
    expect(again.get('contexts')).toEqual(['home-lab']);
    expect(again.get('theme')).toBe('dark');
    expect(again.get('lastKnown')['home-lab']?.inventory.nodes[0]?.name).toBe('nuc1');
    expect(again.notices).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    [
      'a negative hold-down',
      { alertRules: { ...defaultSettings().alertRules, holdDownMs: -1 } },
      ['alertRules.holdDownMs'],
    ],
    ['an unknown theme', { theme: 'blue' }, ['theme']],
    ['a CRD group without a dot', { crdGroup: 'gpufleet' }, ['crdGroup']],
    ['a namespace that is not a DNS label', { configMapNamespace: 'Kube_System' }, ['configMapNamespace']],
    ['duplicate contexts', { contexts: ['a', 'a'] }, ['contexts']],
    ['an unknown field', { token: 'abc' }, ['token']],
    ['the version', { version: 1 }, ['version']],
    [
      'a JWT as a context name',
      { contexts: ['eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlMTIz'] },
      ['contexts.0'],
    ],
    ['a PEM key as a context name', { contexts: ['-----BEGIN RSA PRIVATE KEY-----'] }, ['contexts.0']],
  ])('rejects %s, naming the field, writing nothing', (_name, patch, fields) => {
    const s = openSettings({ cwd: tempDir() });
    s.update({ contexts: ['home-lab'] });
    const before = fs.readFileSync(s.path, 'utf8');
    let error: unknown;
    try {
      s.update(patch as SettingsUpdate);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).fields).toEqual(fields);
    expect((error as SettingsError).message).toContain(fields[0]);
    expect(fs.readFileSync(s.path, 'utf8')).toBe(before);
    expect(s.get('contexts')).toEqual(['home-lab']);
  });

  it('stores what the engine wrote from the cluster: a node named gpu-id-token-1 in the alert log and the last-known inventory', () => {
    const s = openSettings({ cwd: tempDir() });
    const alert = {
      id: 'a1',
      at: '2026-11-29T21:40:00Z',
      context: 'oidc-id-token-ctx',
      kind: 'ready-drop' as const,
      title: 'GPU nodes down',
      body: 'gpu-id-token-1 is NotReady',
      nodes: ['gpu-id-token-1'],
      before: 1,
      after: 0,
    };
    const inventory = {
      observed_at: '2026-11-29T21:40:00Z',
      total_gpu_nodes: 1,
      ready_gpu_nodes: 0,
      total_gpus: 1,
      nodes: [
        {
          name: 'gpu-id-token-1',
          ready: false,
          product: 'NVIDIA-A100',
          count: 1,
          memory: 40960,
          workload: 'container',
        },
      ],
    };
    s.update({
      contexts: ['oidc-id-token-ctx'],
      alertLog: [alert],
      lastKnown: { 'oidc-id-token-ctx': { at: '2026-11-29T21:40:00Z', inventory } },
    });
    const again = openSettings({ cwd: path.dirname(s.path) });
    expect(again.get('alertLog')).toEqual([alert]);
    expect(again.get('lastKnown')['oidc-id-token-ctx']?.inventory.nodes[0]?.name).toBe('gpu-id-token-1');
    expect(again.get('contexts')).toEqual(['oidc-id-token-ctx']);
  });

  it('accepts a custom group and namespace, and hold-down 0', () => {
    const s = openSettings({ cwd: tempDir() });
    const rules = { ...defaultSettings().alertRules, holdDownMs: 0 };
    s.update({ crdGroup: 'gpu.example.com', configMapNamespace: 'gpu-operator', alertRules: rules });
    expect([s.get('crdGroup'), s.get('configMapNamespace'), s.get('alertRules').holdDownMs]).toEqual([
      'gpu.example.com',
      'gpu-operator',
      0,
    ]);
  });

  it('keeps the newest 500 alerts', () => {
    const s = openSettings({ cwd: tempDir() });
    const log: PolicyAlert[] = Array.from({ length: 520 }, (_, i) => ({
      id: `lab:ready-drop:${i}`,
      at: new Date(i).toISOString(),
      context: 'lab',
      kind: 'ready-drop',
      title: 'lab: 1 GPU node down',
      body: 'nuc1 went NotReady. Ready GPU nodes 2 → 1.',
      nodes: ['nuc1'],
      before: 2,
      after: 1,
      ...(i % 2 === 0 ? { suppressed: true } : {}),
    }));
    s.update({ alertLog: log });
    expect(s.get('alertLog').length).toBe(500);
    expect(s.get('alertLog')[0]?.id).toBe('lab:ready-drop:20');
  });

  it('hands out read-only values', () => {
    const s = openSettings({ cwd: tempDir() });
    expect(() => (s.get('contexts') as string[]).push('x')).toThrow(TypeError);
  });

  it('writes through an injected backend (the electron-store seam) with the same options', () => {
    const cwd = tempDir();
    const writes: Record<string, unknown>[] = [];
    let seen: unknown;
    const backend: SettingsBackend = {
      get store() {
        return writes.at(-1) ?? {};
      },
      set store(v) {
        writes.push(v);
      },
    };
    const s = openSettings({
      cwd,
      projectName: 'gpu-fleet',
      createBackend: (o) => {
        seen = o;
        return backend;
      },
    });
    s.update({ launchAtLogin: true });
    expect(seen).toMatchObject({
      cwd,
      projectName: 'gpu-fleet',
      configName: 'settings',
      clearInvalidConfig: false,
    });
    expect(writes).toHaveLength(1);
    expect(writes[0]?.launchAtLogin).toBe(true);
  });
});

describe('settings refusals carry their facts for the window (common/settings-words.ts)', () => {
  const refusal = (fn: () => unknown): SettingsError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof SettingsError) return e;
      throw e;
    }
    throw new Error('expected a refusal');
  };

  it('a value the schema refuses, a credential, a read-only field and a patch that is no object', () => {
    const s = openSettings({ cwd: tempDir() });
    const rules = { ...defaultSettings().alertRules, holdDownMs: -1 };
    expect(refusal(() => s.update({ alertRules: rules })).words).toEqual({
      code: 'settingsInvalid',
      fields: 'alertRules.holdDownMs',
    });
    expect(refusal(() => s.update({ contexts: ['-----BEGIN RSA PRIVATE KEY-----'] })).words).toEqual({
      code: 'settingsCredential',
      field: 'contexts.0',
    });
    expect(refusal(() => s.update({ version: 1 } as SettingsUpdate)).words).toEqual({
      code: 'settingsUnknown',
      fields: 'version',
    });
    expect(refusal(() => s.update([] as unknown as SettingsUpdate)).words).toEqual({
      code: 'settingsNotObject',
    });
  });

  it('a write the file system refuses: its code only, never the error text', () => {
    const failing = (error: Error): SettingsBackend => ({
      get store() {
        return {};
      },
      set store(_v) {
        throw error;
      },
    });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write /home/ana/x'), {
      code: 'ENOSPC',
    });
    const s = openSettings({ cwd: tempDir(), createBackend: () => failing(full) });
    expect(refusal(() => s.update({ theme: 'dark' })).words).toEqual({
      code: 'settingsSaveFailed',
      errno: 'ENOSPC',
    });
    const odd = Object.assign(new TypeError('the token abc is bad'), { code: 'not an errno' });
    const t = openSettings({ cwd: tempDir(), createBackend: () => failing(odd) });
    expect(refusal(() => t.update({ theme: 'dark' })).words).toEqual({
      code: 'settingsSaveFailed',
      errno: 'TypeError',
    });
  });

  it('a document larger than a settings file may be: the two sizes its sentence names', () => {
    const s = openSettings({ cwd: tempDir(), maxFileBytes: 64 });
    const e = refusal(() => s.update({ theme: 'dark' }));
    expect(e.words).toMatchObject({ code: 'settingsTooLarge' });
    const w = e.words as { size: string; max: string };
    expect(e.message).toContain(`they would take ${w.size}, more than the ${w.max} `);
  });
});
