/** The app core records its engine's events in the timeline: against the sim, over real HTTPS. */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { openSettings } from '../settings/store.ts';
import { AppCore } from './app-core.ts';

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
const until = (check: () => boolean, limitMs = 5000) =>
  pollUntil(check, 'the condition', { limitMs, everyMs: 20 });

describe('the timeline of the app core', () => {
  it("lists the episode of a node that went NotReady and came back, with the alert log's alerts in it", async () => {
    const dir = path.join(env.dir, 'data');
    core = new AppCore({
      settings: openSettings({ cwd: dir }),
      kubeconfig: { explicitPath: env.kubeconfigPath },
      mode: 'browser',
      version: 'test',
      engine: { snapshotMs: 10 },
      timelineDir: dir,
    });
    const c = core;
    c.start();
    await c.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 60_000,
        withdrawnGpus: true,
        gpuHotC: 85,
        noFreeGpu: false,
      },
    });
    const kinds: string[] = [];
    c.onPush((channel, payload) => {
      if (channel === 'alerts:new') kinds.push((payload as { kind: string }).kind);
    });
    for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4);
    c.timeline?.recorder.flushAll();
    env.sim.control.setNodeReady('nuc2', 'False', 'KubeletNotReady', 'container runtime is down');
    await until(() => kinds.includes('ready-drop'));
    env.sim.control.setNodeReady('nuc2', 'True');
    await until(() => kinds.includes('recovered'));
    c.timeline?.recorder.flushAll();
    const view = await c.handlers['timeline:range']({ context: 'sim-admin', range: '1h' });
    expect(view.status).toEqual({ state: 'recording' });
    expect(view.episodes).toMatchObject([
      {
        kind: 'not-ready',
        node: 'nuc2',
        state: 'NotReady',
        reason: 'KubeletNotReady',
        message: 'container runtime is down',
      },
    ]);
    expect(view.episodes[0]?.to).not.toBeNull();
    const log = await c.handlers['alerts:log']();
    expect(view.alerts.map((a) => a.id).sort()).toEqual(log.map((a) => a.id).sort());
    expect(view.counts.map((p) => p.ready)).toContain(3);
  });

  it('keeps the Kubernetes events a node detail read, once each by uid, past their expiry', async () => {
    const dir = path.join(env.dir, 'data');
    core = new AppCore({
      settings: openSettings({ cwd: dir }),
      kubeconfig: { explicitPath: env.kubeconfigPath },
      mode: 'browser',
      version: 'test',
      engine: { snapshotMs: 10 },
      timelineDir: dir,
    });
    const c = core;
    c.start();
    await until(() => (c.engine.snapshot().contexts[0]?.inventory?.total_gpu_nodes ?? 0) > 0);
    const detail = await c.handlers['node:detail']('sim-admin', 'nuc1');
    expect(detail.events.length).toBeGreaterThan(0);
    await c.handlers['node:detail']('sim-admin', 'nuc1');
    const view = await c.handlers['timeline:range']({ context: 'sim-admin', range: '24h', node: 'nuc1' });
    const recent = detail.events.filter((e) => e.last !== null && Date.parse(e.last) >= view.from);
    expect(view.events.map((e) => e.reason).sort()).toEqual(recent.map((e) => e.reason).sort());
    expect(view.events.every((e) => e.node === 'nuc1')).toBe(true);
  });
});
