/** The app core against the sim: settings, kubeconfig reloads, last-known inventories and the alert log. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Alert } from '../../common/alerts.ts';
import type { FleetSnapshot } from '../../common/fleet.ts';
import { applyDelta } from '../../common/fleet-delta.ts';
import type { PushEvents } from '../../common/ipc.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import { openSettings } from '../settings/store.ts';
import { AppCore } from './app-core.ts';
import { dispatchInvoke } from './host.ts';

let env: SimContext;
let core: AppCore | null = null;

beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
});
afterEach(async () => {
  core?.stop();
  core = null;
  await env.cleanup();
});

/** `made` records the context name of every client the engine makes (a restarted monitor makes one). */
function makeCore(
  settingsDir = path.join(env.dir, 'settings'),
  clock?: ManualClock,
  made?: string[],
  forward?: (alert: Alert) => void,
) {
  core = new AppCore({
    ...(forward
      ? {
          forwarder: {
            forward: (a: Alert) => {
              forward(a);
              return 1;
            },
            view: () => ({ targets: [], status: [] }),
            test: async () => ({ ok: false, message: 'not in this test' }),
            addRecorder: () => () => undefined,
          },
        }
      : {}),
    settings: openSettings({ cwd: settingsDir }),
    kubeconfig: { explicitPath: env.kubeconfigPath },
    mode: 'browser',
    version: 'test',
    engine: {
      snapshotMs: 10,
      ...(made
        ? {
            makeClient: (ctx: ResolvedContext) => {
              made.push(ctx.name);
              return new ContextClient(ctx);
            },
          }
        : {}),
    },
    ...(clock ? { clock } : {}),
  });
  core.start();
  return core;
}

/** Real-time wait (these tests run on the system clock) for the sim's answers, capped. */
const until = (check: () => boolean, limitMs = 5000) =>
  pollUntil(check, 'the condition', { limitMs, everyMs: 20 });

describe('AppCore', () => {
  it('pushes deltas a window rebuilds the fleet from; snapshot answers carry their place in them', async () => {
    const c = makeCore();
    const deltas: PushEvents['fleet:delta'][] = [];
    const wholes: unknown[] = [];
    c.onPush((channel, payload) => {
      if (channel === 'fleet:delta') deltas.push(payload as PushEvents['fleet:delta']);
      if (channel === 'fleet:snapshot') wholes.push(payload);
    });
    // The core pushed its first snapshot whole at start (before this listener): a late window reads one.
    const start = await c.handlers['fleet:snapshot']();
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.total_gpu_nodes === 4);
    const answer = await c.handlers['fleet:focus']('sim-admin');
    let held: FleetSnapshot = start;
    let seq = start.seq;
    for (const d of deltas.filter((x) => x.to > start.seq)) {
      expect([d.epoch, d.from, d.to]).toEqual([start.epoch, seq, seq + 1]);
      held = applyDelta(held, d);
      seq = d.to;
    }
    expect(wholes).toEqual([]);
    expect([answer.epoch, answer.seq]).toEqual([start.epoch, seq]);
    const { epoch: _e, seq: _s, ...shown } = answer;
    const { epoch: _e2, seq: _s2, ...rebuilt } = held as typeof answer;
    expect(rebuilt).toEqual(shown);
  });

  it('monitors the current context by default and the saved choice after contexts:set-monitored', async () => {
    const c = makeCore();
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.total_gpu_nodes === 4);
    expect(c.engine.snapshot().contexts.map((x) => x.context)).toEqual(['sim-admin']);
    expect((await c.handlers['settings:get']()).monitoredContexts).toEqual(['sim-admin']);
    const list = await c.handlers['contexts:set-monitored'](['sim-readonly', 'sim-admin']);
    expect(list.filter((x) => x.monitored).map((x) => x.name)).toEqual(['sim-admin', 'sim-readonly']);
    expect(c.settings.get('contexts')).toEqual(['sim-readonly', 'sim-admin']);
    await until(() => c.engine.snapshot().contexts.every((x) => x.inventory !== null));
  });

  it("alerts:snooze always pauses ('until-resumed' has no end); only alerts:resume resumes", async () => {
    const c = makeCore();
    await c.handlers['alerts:snooze'](null, { kind: 'until-resumed' });
    expect(c.engine.snoozeState.all).not.toBeNull();
    // Asked again while paused, it stays paused (it used to resume here).
    await c.handlers['alerts:snooze'](null, { kind: 'until-resumed' });
    expect(c.engine.snoozeState.all).not.toBeNull();
    await c.handlers['alerts:resume'](null);
    expect(c.engine.snoozeState.all).toBeNull();
  });

  it('pauses one context: its card carries the end, the others and the fleet stay unpaused', async () => {
    const c = makeCore();
    await c.handlers['contexts:set-monitored'](['sim-readonly', 'sim-admin']);
    const paused = await c.handlers['alerts:snooze']('sim-admin', { kind: 'until-resumed' });
    const byName = new Map(paused.contexts.map((x) => [x.context, x]));
    expect(byName.get('sim-admin')?.alertsPausedUntil).toBe('until resumed');
    expect(byName.get('sim-readonly')?.alertsPausedUntil).toBeUndefined();
    expect(paused.alertsPausedUntil).toBeNull();
    expect(c.settings.get('alertsPaused').contexts['sim-admin']).toEqual({ until: null });
    const resumed = await c.handlers['alerts:resume']('sim-admin');
    expect(resumed.contexts.every((x) => x.alertsPausedUntil === undefined)).toBe(true);
  });

  it('rejects an invalid settings update with the field named, and applies a valid one', async () => {
    const c = makeCore();
    await expect(async () => c.handlers['settings:update']({ crdGroup: 'nodots' })).rejects.toThrow(
      'Invalid settings: crdGroup: must be an API group: a lowercase DNS name with at least one dot, like gpufleet.io.',
    );
    // As the window gets it: the host's sentence, and the facts it words in its language.
    const pem = '-----BEGIN RSA PRIVATE KEY-----';
    expect(await dispatchInvoke(c.handlers, 'settings:update', [{ monitoredContexts: [pem] }])).toMatchObject(
      {
        ok: false,
        kind: 'failed',
        words: { code: 'settingsCredential', field: 'contexts.0' },
      },
    );
    const telemetry = { background: 'off' as const, autoMaxGpuNodes: 50, budgetPerMinute: 60 };
    const view = await c.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 5000,
        withdrawnGpus: false,
        gpuHotC: 90,
        noFreeGpu: true,
      },
      telemetry,
    });
    expect(view.alertRules).toEqual({
      holdDownMs: 0,
      unreachableAfterMs: 5000,
      withdrawnGpus: false,
      gpuHotC: 90,
      noFreeGpu: true,
    });
    expect(c.settings.get('alertRules').noFreeGpu).toBe(true);
    expect(c.settings.get('alertRules').flapThreshold).toBe(2);
    expect(c.settings.get('alertRules').gpuHotC).toBe(90);
    expect(view.telemetry).toEqual(telemetry);
    expect(c.settings.get('telemetry')).toEqual(telemetry);
  });

  it('refuses telemetry settings and a GPU temperature limit out of range at the contract', async () => {
    const c = makeCore();
    const rules = { holdDownMs: 0, unreachableAfterMs: 5000, withdrawnGpus: false };
    const telemetry = { background: 'auto', autoMaxGpuNodes: 200, budgetPerMinute: 20 };
    const sent = (patch: unknown) => dispatchInvoke(c.handlers, 'settings:update', [patch]);
    expect((await sent({ telemetry })).ok).toBe(true);
    for (const bad of [
      { telemetry: { ...telemetry, budgetPerMinute: 0 } },
      { telemetry: { ...telemetry, autoMaxGpuNodes: 100_001 } },
      { telemetry: { ...telemetry, background: 'sometimes' } },
      { telemetry: { ...telemetry, extra: 1 } },
      { alertRules: { ...rules, gpuHotC: 121 } },
      { alertRules: { ...rules, gpuHotC: 29 } },
    ])
      expect(await sent(bad)).toMatchObject({ ok: false, status: 400, kind: 'bad-request' });
    expect(c.settings.get('telemetry')).toEqual(telemetry);
  });

  it('refuses at the door, with a sentence, what the settings file would refuse; nothing is saved', async () => {
    const c = makeCore();
    const before = c.settings.all();
    const group = await dispatchInvoke(c.handlers, 'settings:update', [{ crdGroup: 'nodots' }]);
    expect(group).toEqual({
      ok: false,
      status: 400,
      kind: 'bad-request',
      error:
        'settings:update: invalid value at /0/crdGroup: must be an API group: a lowercase DNS name with at least one dot, like gpufleet.io',
    });
    for (const [channel, args] of [
      ['settings:update', [{ monitoredContexts: ['sim-admin', 'sim-admin'] }]],
      [
        'settings:update',
        [{ alertRules: { holdDownMs: 3600_001, unreachableAfterMs: 0, withdrawnGpus: true, gpuHotC: 85 } }],
      ],
      ['settings:update', [{ writeBack: { ['x'.repeat(254)]: true } }]],
      ['contexts:set-monitored', [['sim-admin', 'sim-admin']]],
    ] as const)
      expect(await dispatchInvoke(c.handlers, channel, args)).toMatchObject({ ok: false, status: 400 });
    expect(c.settings.all()).toBe(before);
  });

  it('shows the last-known inventory, stale, at the next launch while it connects', async () => {
    const settingsDir = path.join(env.dir, 'settings');
    const first = makeCore(settingsDir);
    await until(() => {
      const ctx = first.engine.snapshot().contexts[0];
      return ctx?.inventory?.total_gpu_nodes === 4 && !ctx.stale;
    });
    first.stop();
    core = null;
    await env.sim.close();
    const second = makeCore(settingsDir);
    const ctx = second.engine.snapshot().contexts[0];
    expect(ctx?.inventory?.total_gpu_nodes).toBe(4);
    expect(ctx?.stale).toBe(true);
  });

  it('re-reads the kubeconfig when it changes and keeps healthy contexts', async () => {
    const made: string[] = [];
    const c = makeCore(undefined, undefined, made);
    await c.handlers['contexts:set-monitored'](['sim-admin', 'renamed']);
    await until(() => c.engine.snapshot().contexts[0]?.inventory !== null);
    expect(c.notices()).toContain('The monitored context "renamed" is no longer in your kubeconfig.');
    expect((await c.handlers['settings:get']()).monitoredContexts).toEqual(['sim-admin', 'renamed']);
    // Each monitor makes a client per watch (nodes; in source auto also the controller's Lease and GpuInventory).
    const adminClients = made.filter((m) => m === 'sim-admin').length;
    const doc = parse(fs.readFileSync(env.kubeconfigPath, 'utf8')) as { contexts: { name: string }[] };
    for (const entry of doc.contexts) if (entry.name === 'sim-readonly') entry.name = 'renamed';
    fs.writeFileSync(env.kubeconfigPath, stringify(doc), { mode: 0o600 });
    // "renamed" reaches sim-admin's cluster (same server and CA): it joins that card, watched once.
    await until(() => c.engine.snapshot().contexts[0]?.sameCluster?.join() === 'renamed');
    expect(c.engine.snapshot().contexts.map((x) => x.context)).toEqual(['sim-admin']);
    expect(c.notices()).not.toContain('The monitored context "renamed" is no longer in your kubeconfig.');
    // sim-admin's entry did not change: its monitor (and client) went on through the reload.
    expect(made.filter((m) => m === 'sim-admin')).toHaveLength(adminClients);
    expect(made).not.toContain('renamed');
    // Kept apart (the setting), "renamed" gets a monitor and a card of its own.
    await c.handlers['settings:update']({ mergeSameCluster: false });
    await until(
      () =>
        c.engine
          .snapshot()
          .contexts.map((x) => x.context)
          .join() === 'sim-admin,renamed',
    );
    await until(() => c.engine.snapshot().contexts[1]?.inventory?.total_gpu_nodes === 4);
    expect(made).toContain('renamed');
  });

  it('persists alerts in the log and pushes them to windows', async () => {
    const c = makeCore();
    await c.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 60_000,
        withdrawnGpus: true,
        gpuHotC: 85,
        noFreeGpu: false,
      },
    });
    const pushed: string[] = [];
    c.onPush((channel, payload) => {
      if (channel === 'alerts:new') pushed.push((payload as { kind: string }).kind);
    });
    for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4);
    env.sim.control.setNodeReady('nuc2', 'False');
    await until(() => pushed.includes('ready-drop'));
    const log = await c.handlers['alerts:log']();
    expect(log[0]).toMatchObject({
      kind: 'ready-drop',
      context: 'sim-admin',
      before: 4,
      after: 3,
      nodes: ['nuc2'],
    });
    expect(c.settings.get('alertLog').map((a) => a.kind)).toContain('ready-drop');
  });

  it('pushes alerts:notify only for alerts the desktop notifier would show (none while paused), and forwards those', async () => {
    const forwarded: string[][] = [];
    const c = makeCore(undefined, undefined, undefined, (a) => forwarded.push(a.nodes));
    await c.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 60_000,
        withdrawnGpus: true,
        gpuHotC: 85,
        noFreeGpu: false,
      },
    });
    const pushed: { channel: string; nodes: string[] }[] = [];
    c.onPush((channel, payload) => {
      if (channel === 'alerts:new' || channel === 'alerts:notify')
        pushed.push({ channel, nodes: (payload as { nodes: string[] }).nodes });
    });
    for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4);
    await c.handlers['alerts:snooze'](null, { kind: 'until-resumed' });
    env.sim.control.setNodeReady('nuc2', 'False');
    await until(() => pushed.some((p) => p.channel === 'alerts:new'));
    expect(pushed).toEqual([{ channel: 'alerts:new', nodes: ['nuc2'] }]);
    await c.handlers['alerts:resume'](null);
    env.sim.control.setNodeReady('omen', 'False');
    await until(() => pushed.some((p) => p.channel === 'alerts:notify'));
    expect(pushed.slice(1)).toEqual([
      { channel: 'alerts:new', nodes: ['omen'] },
      { channel: 'alerts:notify', nodes: ['omen'] },
    ]);
    expect(forwarded).toEqual([['omen']]);
  });

  it('writes back only where the user turned it on, reports a missing CRD, and installs it on request', async () => {
    // Engine and write-back time is a ManualClock: the retry after "CRD missing" waits on the status
    // writer's backoff (2.5–5 s), which the test runs out itself instead of sleeping through it.
    const clock = new ManualClock();
    const c = makeCore(undefined, clock);
    const ctx = () => c.engine.snapshot().contexts[0];
    const wait = (check: () => boolean, what: string) =>
      pollUntil(check, what, { each: () => clock.advance(0) });
    await wait(() => ctx()?.inventory !== null && ctx()?.inventory !== undefined, 'the first list');
    expect(ctx()?.writeback.phase).toBe('off');
    await c.handlers['settings:update']({ writeBack: { 'sim-admin': true } });
    await wait(() => ctx()?.writeback.phase === 'crd-missing', 'crd-missing');
    expect(ctx()?.writeback.message).toMatch(/gpuinventories\.gpufleet\.io/);
    expect(await c.handlers['writeback:install']('sim-admin')).toEqual({ crd: 'created', object: 'created' });
    // Installing does not write by itself: the status writer retries on its backoff, with no new input.
    expect(ctx()?.writeback.phase).toBe('crd-missing');
    clock.advance(5000);
    await wait(() => ctx()?.writeback.phase === 'idle', 'the retried write');
    const client = new ContextClient(env.context());
    const inCluster = async () =>
      (
        (await client.getJson('/apis/gpufleet.io/v1/gpuinventories/cluster', 'reading the inventory')) as {
          status?: { ready_gpu_nodes?: number; total_gpu_nodes?: number };
        }
      ).status;
    try {
      expect(await inCluster()).toMatchObject({ ready_gpu_nodes: 0, total_gpu_nodes: 4 });
      // A change is written after the coalescing window (5 s since the last apply).
      const writes = ctx()?.writeback.writes ?? 0;
      env.sim.control.setNodeReady('nuc1', 'True');
      await wait(() => ctx()?.inventory?.ready_gpu_nodes === 1, 'the flip in the inventory');
      clock.advance(5000);
      await wait(
        () => (ctx()?.writeback.writes ?? 0) >= writes + 2 && ctx()?.writeback.phase === 'idle',
        'the writes',
      );
      expect(await inCluster()).toMatchObject({ ready_gpu_nodes: 1, total_gpu_nodes: 4 });

      // Turned off again: that context's writers stop, and a change is no longer written.
      await c.handlers['settings:update']({ writeBack: { 'sim-admin': false } });
      expect(ctx()?.writeback.phase).toBe('off');
      const patches = () => env.sim.control.requestLog().filter((r) => r.method === 'PATCH').length;
      const patched = patches();
      env.sim.control.setNodeReady('nuc2', 'True');
      await wait(() => ctx()?.inventory?.ready_gpu_nodes === 2, 'the next flip');
      clock.advance(60_000);
      expect(ctx()?.writeback.phase).toBe('off');
      expect(patches()).toBe(patched);
    } finally {
      client.close();
    }
  });
});
