/**
 * Fault matrix, names that are Object.prototype keys (`constructor`, `__proto__`, `toString`,
 * `hasOwnProperty`, `valueOf` are valid Kubernetes node names and kubeconfig context names): the alert
 * policy, snoozes and settings treat them as ordinary names. Example cases here; the property tests over
 * arbitrary names are in hostile-properties.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { writeBackOptedIn } from '../../common/settings.ts';
import { evaluate, forgetContext, tick } from '../../main/alerts/policy.ts';
import { play, summary } from '../../main/alerts/scenario.testkit.ts';
import { isSnoozed, NO_SNOOZE, pruneSnooze, resume, snooze } from '../../main/alerts/snooze.ts';
import { jsonEqual } from '../../main/inventory/json-equal.ts';
import { openSettings } from '../../main/settings/store.ts';
import { startSim } from '../../sim/index.ts';
import { buildNode } from '../../sim/scenarios/node.ts';
import { startApp } from './app.ts';
import { caData, tempDir } from './kubeconfig.ts';
import { PROTO_NAMES } from './proto-names.ts';
import { rawExchange, statusOf } from './raw-http.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

describe('prototype names in the alert policy', () => {
  it.each(PROTO_NAMES)('a node named %s drops, flaps and recovers like any other', (name) => {
    const all = { [name]: true, b: true } as Record<string, boolean>;
    const down = { [name]: false, b: true } as Record<string, boolean>;
    const out = play([
      [0, 'lab', all],
      [10, 'lab', down],
      [100, 'lab', all],
    ]);
    expect(out.alerts.map(summary)).toEqual([
      `40s lab ready-drop [${name}] 2→1`,
      `100s lab recovered [${name}] 1→2`,
    ]);
  });

  it.each(PROTO_NAMES)('a node named %s that flaps is alerted as flapping', (name) => {
    const up = { [name]: true } as Record<string, boolean>;
    const down = { [name]: false } as Record<string, boolean>;
    const out = play([
      [0, 'lab', up],
      [1, 'lab', down],
      [2, 'lab', up],
      [3, 'lab', down],
    ]);
    expect(out.alerts.map(summary)).toContain(`3s lab flapping [${name}] 1→0`);
  });

  it.each(PROTO_NAMES)('a context named %s is judged, ticked and forgotten on its own', (context) => {
    const out = play([
      [0, context, { a: true, b: true }],
      [10, context, { a: false, b: true }],
      [20, 'other', { c: true }],
    ]);
    expect(out.alerts.map(summary)).toEqual([`40s ${context} ready-drop [a] 2→1`]);
    expect(Object.keys(out.state.contexts).sort()).toEqual([context, 'other'].sort());
    const forgotten = forgetContext(out.state, context);
    expect(Object.keys(forgotten.contexts)).toEqual(['other']);
    expect(Object.keys(forgetContext(out.state, 'never-seen').contexts)).toHaveLength(2);
  });

  it('an unknown context named constructor starts from nothing', () => {
    const out = evaluate(
      { contexts: {} },
      { at: 0, context: 'constructor', reachable: false, inventory: null },
      DEFAULT_ALERT_RULES,
      NO_SNOOZE,
    );
    expect(out.state.contexts.constructor).toMatchObject({ reachable: false, unreachableSince: 0 });
    expect(tick(out.state, 60_000, DEFAULT_ALERT_RULES, NO_SNOOZE).alerts.map((a) => a.kind)).toEqual([
      'unreachable',
    ]);
  });
});

describe('prototype names in snoozes', () => {
  it.each(PROTO_NAMES)('a context named %s is snoozed only when snoozed', (name) => {
    expect(isSnoozed(NO_SNOOZE, name, 0)).toBe(false);
    const s = snooze(NO_SNOOZE, name, { kind: 'for', ms: 1000 }, 0);
    expect(isSnoozed(s, name, 500)).toBe(true);
    expect(isSnoozed(s, 'other', 500)).toBe(false);
    expect(Object.keys(pruneSnooze(s, 500).contexts)).toEqual([name]);
    expect(isSnoozed(resume(s, name), name, 500)).toBe(false);
  });
});

describe('prototype names through the whole app (sim over HTTPS, kubeconfig and settings from disk)', () => {
  const gpuNode = (name: string, ready: 'True' | 'False') =>
    buildNode({
      name,
      ready,
      ip: '10.0.9.9',
      created: '2026-11-01T00:00:00Z',
      labels: { 'nvidia.com/gpu.product': 'NVIDIA-GeForce-RTX-4070', 'nvidia.com/gpu.count': '1' },
      capacity: { 'nvidia.com/gpu': '1' },
      allocatable: { 'nvidia.com/gpu': '1' },
    });

  async function app(writeBack: string) {
    const sim = await startSim({ scenario: 'homelab' });
    cleanup(() => sim.close());
    for (const n of sim.control.listNodeNames()) sim.control.setNodeReady(n, 'True');
    // Of the Object.prototype keys only `constructor` is a valid node name (DNS-1123: lowercase).
    sim.control.addNode(gpuNode('constructor', 'True'));
    const dir = tempDir();
    const names = [...PROTO_NAMES, 'plain'];
    const kubeconfig = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: names.map((name) => ({
        name,
        cluster: { server: sim.url, 'certificate-authority-data': caData(sim.caPem) },
      })),
      users: names.map((name) => ({ name, user: { token: sim.tokens.admin } })),
      contexts: names.map((name) => ({ name, context: { cluster: name, user: name } })),
      'current-context': 'plain',
    };
    const file = path.join(dir, 'config');
    fs.writeFileSync(file, JSON.stringify(kubeconfig), { mode: 0o600 });
    const settingsDir = path.join(dir, 'settings');
    fs.mkdirSync(settingsDir);
    fs.writeFileSync(
      path.join(settingsDir, 'settings.json'),
      // Every name is its own context on one sim: kept apart, so each is a card of its own.
      `{"version":2,"contexts":${JSON.stringify(names)},"writeBack":${writeBack},"mergeSameCluster":false}`,
    );
    const a = startApp({ explicitPath: file }, settingsDir);
    cleanup(() => a.stop());
    return { a, sim, names };
  }

  it('every context is monitored, sees the node named constructor, and has write-back off', async () => {
    const { a, names } = await app('{"plain":false}');
    expect(a.core.settings.notices).toEqual([]);
    for (const name of names) {
      const inv = await a.run.live(name);
      expect(inv.nodes.map((n) => n.name)).toContain('constructor');
      expect(a.run.ctx(name).writeback.phase).toBe('off');
    }
  });

  it('write-back is on only where the settings file opts in, even for __proto__', async () => {
    const { a, names } = await app('{"__proto__":true,"constructor":false}');
    for (const name of names) await a.run.live(name);
    await a.run.waitFor(
      () => a.run.ctx('__proto__').writeback.phase !== 'off',
      'write-back on for __proto__',
    );
    for (const name of names.filter((n) => n !== '__proto__'))
      expect(a.run.ctx(name).writeback.phase).toBe('off');
  });

  it('a node named constructor that goes NotReady is alerted by name', async () => {
    const { a, sim } = await app('{}');
    await a.run.live('plain');
    sim.control.setNodeReady('constructor', 'False');
    await a.run.waitFor(
      () =>
        a.run.alerts.some(
          (al) => al.context === 'plain' && al.kind === 'ready-drop' && al.nodes.includes('constructor'),
        ),
      'a ready-drop alert for constructor',
    );
  });
});

describe('prototype names in the meaningful-change comparison', () => {
  it.each(PROTO_NAMES)('a key %s that only one side has is a change', (key) => {
    const withKey = JSON.parse(`{"a":1,${JSON.stringify(key)}:"x"}`);
    expect(jsonEqual({ a: 1 }, withKey)).toBe(false);
    expect(jsonEqual(withKey, { a: 1 })).toBe(false);
    expect(jsonEqual(withKey, JSON.parse(JSON.stringify(withKey)))).toBe(true);
  });
});

describe('prototype names as simulator control verbs', () => {
  it.each(PROTO_NAMES)('POST /sim/control/%s is an unknown verb (404)', async (verb) => {
    const sim = await startSim({ scenario: 'homelab', httpControls: true });
    cleanup(() => sim.close());
    const answer = await rawExchange(
      { port: Number(new URL(sim.url).port), tls: true },
      `POST /sim/control/${verb} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sim.tokens.admin}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]`,
    );
    expect(statusOf(answer)).toBe(404);
    expect(answer).toContain(`unknown control verb ${verb}`);
  });
});

describe('settings files with prototype keys', () => {
  const open = (text: string) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'settings.json'), text);
    return openSettings({ cwd: dir });
  };

  it.each([
    ['at the top', '{"version":2,"__proto__":{"writeBack":{"toString":true}}}'],
    ['in the alert rules', '{"version":2,"alertRules":{"__proto__":{"holdDownMs":0}}}'],
    ['as "constructor" in the alert rules', '{"version":2,"alertRules":{"constructor":{"holdDownMs":0}}}'],
  ])('a __proto__ or constructor key %s: refused, moved aside, defaults in use', (_where, text) => {
    const s = open(text);
    expect(s.notices[0]?.kind).toBe('corrupt');
    expect(s.get('alertRules')).toEqual(DEFAULT_ALERT_RULES);
    expect(writeBackOptedIn(s.get('writeBack'), 'toString')).toBe(false);
  });

  it('context names that are prototype keys are ordinary keys of writeBack, lastKnown and snoozes', () => {
    const s = open(
      '{"version":2,"writeBack":{"__proto__":true,"constructor":false},"alertsPaused":{"all":null,"contexts":{"toString":{"until":null}}}}',
    );
    expect(s.notices).toEqual([]);
    expect(writeBackOptedIn(s.get('writeBack'), '__proto__')).toBe(true);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf'])
      expect(writeBackOptedIn(s.get('writeBack'), name)).toBe(false);
    expect(isSnoozed(s.get('alertsPaused'), 'toString', 0)).toBe(true);
    expect(isSnoozed(s.get('alertsPaused'), 'constructor', 0)).toBe(false);
    const next = s.update({ writeBack: { ...s.get('writeBack'), valueOf: true } });
    expect(Object.keys(next.writeBack).sort()).toEqual(['__proto__', 'constructor', 'valueOf']);
  });
});
