/** Migration of version-1 settings files to version 2, as a pure step and through openSettings. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/settings.ts';
import { migrate } from './migrations.ts';
import { openSettings } from './store.ts';

const V1 = {
  version: 1,
  contexts: ['home-lab', 'work', 'home-lab'],
  holdDownSeconds: 45,
  writeBack: ['home-lab'],
  crdGroup: 'gpu.example.com',
  theme: 'dark',
  pausedUntil: '2026-11-30T08:00:00Z',
};

describe('settings migrations', () => {
  it('maps every version-1 field to its version-2 place', () => {
    const r = migrate(V1);
    expect(r.ok && r.from).toBe(1);
    expect(r.ok && r.settings).toEqual({
      ...defaultSettings(),
      contexts: ['home-lab', 'work'],
      alertRules: { ...defaultSettings().alertRules, holdDownMs: 45_000 },
      writeBack: { 'home-lab': true },
      crdGroup: 'gpu.example.com',
      theme: 'dark',
      alertsPaused: { all: { until: Date.parse('2026-11-30T08:00:00Z') }, contexts: {} },
    });
  });

  it.each([
    ['a file without a version is version 1', { contexts: ['a'], holdDownSeconds: 0 }, true],
    ['a bare version 2 file is current', { version: 2 }, true],
    ['version-1 hold-down as text is invalid', { version: 1, contexts: [], holdDownSeconds: '30' }, false],
    [
      'a version-1 group that is not a DNS name fails after migration',
      { ...V1, crdGroup: 'Bad Group' },
      false,
    ],
    ['version 0 is unknown', { version: 0 }, false],
    ['malformed rules are not replaced by defaults', { version: 2, alertRules: 5 }, false],
  ])('%s', (_name, raw, ok) => {
    const r = migrate(raw);
    expect(r.ok).toBe(ok);
    if (!r.ok) expect(r.message).toMatch(/holdDownSeconds|crdGroup|version 0|alertRules/);
  });

  it('a version-2 file from before take-over gets no take-over anywhere, and keeps its write-back', () => {
    const r = migrate({ version: 2, writeBack: { lab: true, constructor: true } });
    expect(r.ok && r.settings.writeBackTakeOver).toEqual({});
    expect(r.ok && r.settings.writeBack).toEqual({ lab: true, constructor: true });
    expect(r.ok && r.changed).toBe(true);
    expect(
      migrate(V1).ok &&
        (migrate(V1) as { settings: { writeBackTakeOver: unknown } }).settings.writeBackTakeOver,
    ).toEqual({});
  });

  it('a version-2 file from before languages follows the OS; a language it cannot show is refused', () => {
    const before = migrate({ version: 2, theme: 'dark' });
    expect(before.ok && before.settings.language).toBe('auto');
    expect(before.ok && before.changed).toBe(true);
    const chosen = migrate({ version: 2, language: 'ko' });
    expect(chosen.ok && chosen.settings.language).toBe('ko');
    const unknown = migrate({ version: 2, language: 'fr' });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.message).toMatch(/language/);
  });

  it('a version-2 file from before inventory sources reads every context auto; an unknown source or namespace is refused', () => {
    const before = migrate({ version: 2, writeBack: { lab: true } });
    expect(before.ok && before.settings.source).toEqual({});
    expect(before.ok && before.settings.controllerNamespace).toEqual({});
    expect(migrate(V1).ok && (migrate(V1) as { settings: { source: unknown } }).settings.source).toEqual({});
    const chosen = migrate({
      version: 2,
      source: { lab: 'controller' },
      controllerNamespace: { lab: 'ops' },
    });
    expect(chosen.ok && chosen.settings.source).toEqual({ lab: 'controller' });
    const bad = migrate({ version: 2, source: { lab: 'cluster' } });
    expect(!bad.ok && bad.message).toContain('source.lab');
    const badNs = migrate({ version: 2, controllerNamespace: { lab: 'Ops Team' } });
    expect(!badNs.ok && badNs.message).toContain('controllerNamespace.lab');
  });

  it('keeps the words facts of logged alerts, and refuses malformed ones', () => {
    const logged = {
      id: 'lab:unreachable:2026-12-01T10:00:00.000Z',
      at: '2026-12-01T10:00:00.000Z',
      context: 'lab',
      kind: 'unreachable',
      title: 'lab: cluster unreachable',
      body: 'No answer from lab for 2 min. No inventory was known yet.',
      nodes: [],
      before: null,
      after: null,
      words: { kind: 'unreachable', forMs: 120_000, total: null },
    };
    const ok = migrate({ version: 2, alertLog: [logged] });
    expect(ok.ok && ok.settings.alertLog[0]?.words).toEqual(logged.words);
    expect(
      migrate({ version: 2, alertLog: [{ ...logged, words: { kind: 'unreachable', forMs: '2m' } }] }).ok,
    ).toBe(false);
  });

  it('keeps the reason facts of a logged drop, and refuses malformed ones', () => {
    const logged = {
      id: 'lab:ready-drop:2026-12-01T10:00:00.000Z',
      at: '2026-12-01T10:00:00.000Z',
      context: 'lab',
      kind: 'ready-drop',
      title: 'lab: a GPU node down',
      body: 'omen: kubelet stopped posting node status. Ready GPU nodes 2 → 1.',
      nodes: ['omen'],
      before: 2,
      after: 1,
      reasons: [{ node: 'omen', reason: 'kubelet stopped posting node status' }],
      words: { kind: 'ready-drop', left: [], why: [{ code: 'kubeletStopped' }] },
    };
    const ok = migrate({ version: 2, alertLog: [logged] });
    expect(ok.ok && ok.settings.alertLog[0]?.words).toEqual(logged.words);
    for (const why of [
      [{ code: 'tired' }],
      [{ code: 'clause' }],
      [{ code: 'clause', clause: 'x'.repeat(401) }],
    ])
      expect(migrate({ version: 2, alertLog: [{ ...logged, words: { ...logged.words, why } }] }).ok).toBe(
        false,
      );
  });

  it('keeps the words of GPU telemetry alerts, and refuses malformed ones', () => {
    const gpu = { index: 0, uuid: 'GPU-0', model: 'NVIDIA H100 80GB HBM3' };
    const logged = {
      id: 'lab:gpu-xid:n1:2026-12-01T10:00:00.000Z',
      at: '2026-12-01T10:00:00.000Z',
      context: 'lab',
      kind: 'gpu-xid',
      title: 'lab: XID 79 on n1',
      body: 'n1 GPU 0 (NVIDIA H100 80GB HBM3, GPU-0): XID 79: GPU has fallen off the bus.',
      nodes: ['n1'],
      before: null,
      after: null,
      words: { kind: 'gpu-xid', hits: [{ gpu, xid: 79 }] },
    };
    const hot = { kind: 'gpu-hot', hot: [{ gpu, temp: 91 }], thresholdC: 85, forMs: 30_000 };
    const ok = migrate({
      version: 2,
      alertLog: [
        logged,
        { ...logged, kind: 'gpu-hot', words: hot },
        { ...logged, words: { kind: 'gpu-gone', gone: [gpu] } },
      ],
    });
    expect(ok.ok && ok.settings.alertLog.map((a) => a.words)).toEqual([
      logged.words,
      hot,
      { kind: 'gpu-gone', gone: [gpu] },
    ]);
    const bad = [
      { kind: 'gpu-xid', hits: [{ gpu, xid: '79' }] },
      { kind: 'gpu-xid', hits: [{ gpu: { index: -1, uuid: null, model: null }, xid: 79 }] },
      { kind: 'gpu-xid', hits: [{ gpu: { ...gpu, extra: 1 }, xid: 79 }] },
      { kind: 'gpu-gone', gone: Array.from({ length: 65 }, (_, index) => ({ ...gpu, index })) },
      { kind: 'gpu-gone', gone: [{ ...gpu, uuid: 'x'.repeat(1025) }] },
      { kind: 'gpu-hot', hot: [{ gpu, temp: 91 }], thresholdC: 85 },
      { kind: 'gpu-hot', hot: [{ gpu, temp: 91 }], thresholdC: 85, forMs: -1 },
    ];
    for (const words of bad) expect(migrate({ version: 2, alertLog: [{ ...logged, words }] }).ok).toBe(false);
  });

  it('refuses a take-over value that is not a boolean', () => {
    const r = migrate({ version: 2, writeBackTakeOver: { lab: 'yes' } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('writeBackTakeOver.lab');
  });

  it('upgrades the file on open and keeps the old one next to it', () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-settings-'));
    try {
      fs.writeFileSync(path.join(cwd, 'settings.json'), JSON.stringify(V1));
      const s = openSettings({ cwd, now: () => new Date('2026-11-29T21:40:00Z') });
      expect(s.notices.map((n) => n.message)).toEqual([
        'Your settings were upgraded from version 1; the old file was kept as settings.v1-2026-11-29T21-40-00.json.',
      ]);
      expect(
        JSON.parse(fs.readFileSync(path.join(cwd, 'settings.v1-2026-11-29T21-40-00.json'), 'utf8')),
      ).toEqual(V1);
      const saved = JSON.parse(fs.readFileSync(s.path, 'utf8'));
      expect([saved.version, saved.alertRules.holdDownMs]).toEqual([2, 45_000]);
      expect(openSettings({ cwd }).notices).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
  it('opens a file written by the version before the one schema, every field as it was', () => {
    // Written by openSettings(...).update(...) of commit 5766512 (settings in main/settings/schema.ts),
    // every field set away from its default, with prototype-key context names and a logged alert of each form.
    const written = fs.readFileSync(
      path.join(import.meta.dirname, 'fixtures', 'settings-v2-5766512.json'),
      'utf8',
    );
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-settings-'));
    try {
      fs.writeFileSync(path.join(cwd, 'settings.json'), written);
      const s = openSettings({ cwd });
      expect(s.notices).toEqual([]);
      // Fields added since (the noFreeGpu rule, forwarding) are filled with their defaults and written
      // with them: the file is the one written plus those.
      const parsed = JSON.parse(written);
      const filled = { ...parsed, alertRules: { ...parsed.alertRules, noFreeGpu: false }, forwarding: [] };
      expect(s.all()).toEqual(filled);
      expect(JSON.parse(fs.readFileSync(s.path, 'utf8'))).toEqual(filled);
      expect(fs.readdirSync(cwd)).toEqual(['settings.json']);
      // And it is still a file this version can save.
      s.update({ theme: 'light' });
      expect({ ...JSON.parse(fs.readFileSync(s.path, 'utf8')), theme: 'dark' }).toEqual(filled);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
