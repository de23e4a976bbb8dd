/** The app core records its engine's events in the timeline: against the sim, over real HTTPS. */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
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

  it('records the events about GPU nodes it watches while monitoring, and keeps them once the server deleted them', async () => {
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
    await until(() => c.engine.snapshot().contexts[0]?.inventory?.total_gpu_nodes === 4);
    const client = new ContextClient(env.context('sim-admin'));
    const at = new Date().toISOString();
    const events = '/api/v1/namespaces/default/events';
    const made = await client.request('POST', events, {
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        metadata: { name: 'omen2.watched', namespace: 'default' },
        involvedObject: { kind: 'Node', name: 'omen2', apiVersion: 'v1' },
        reason: 'NodeHasDiskPressure',
        message: 'Node omen2 status is now: NodeHasDiskPressure',
        source: { component: 'kubelet' },
        firstTimestamp: at,
        lastTimestamp: at,
        count: 4,
        type: 'Warning',
      }),
    });
    expect(made.status).toBe(201);
    const range = () => c.handlers['timeline:range']({ context: 'sim-admin', range: '1h', node: 'omen2' });
    const watched = async () => (await range()).events.filter((e) => e.reason === 'NodeHasDiskPressure');
    let found: Awaited<ReturnType<typeof watched>> = [];
    await pollUntil(
      () => {
        void watched().then((w) => {
          found = w;
        });
        return found.length > 0;
      },
      'the watched event in the timeline',
      { limitMs: 10_000, everyMs: 50 },
    );
    expect(found).toMatchObject([{ node: 'omen2', count: 4, type: 'Warning' }]);
    // The server forgets it (an hour later, in a real cluster); the timeline does not.
    const gone = await client.request('DELETE', `${events}/omen2.watched`, {
      headers: { Accept: 'application/json' },
    });
    expect(gone.status).toBe(200);
    c.timeline?.recorder.flushAll();
    expect(await watched()).toMatchObject([{ node: 'omen2', count: 4 }]);
  });

  it('records the free GPUs by product the snapshots carry, and reads them as lines', async () => {
    const lab = await startSimContext({ scenario: 'smalllab:3600000' });
    try {
      const dir = path.join(lab.dir, 'data');
      core = new AppCore({
        settings: openSettings({ cwd: dir }),
        kubeconfig: { explicitPath: lab.kubeconfigPath },
        mode: 'browser',
        version: 'test',
        engine: { snapshotMs: 10 },
        timelineDir: dir,
      });
      const c = core;
      c.start();
      const free = () => c.engine.snapshot().contexts[0]?.free;
      await until(() => free()?.state === 'known' && (free()?.products.length ?? 0) > 0);
      // The snapshot that carried them reached the recorder (snapshots are coalesced by 10 ms).
      await until(
        () =>
          (c.timeline?.recorder.read({ context: 'sim-admin', from: 0, to: Date.now() + 1 }).free.length ??
            0) > 0,
      );
      const view = await c.handlers['timeline:range']({ context: 'sim-admin', range: '1h' });
      const products = free()?.products ?? [];
      expect(view.free.map((l) => l.product).sort()).toEqual(products.map((p) => p.label).sort());
      for (const line of view.free)
        expect(line.points.at(-1)?.free).toBe(products.find((p) => p.label === line.product)?.free);
    } finally {
      core?.stop();
      core = null;
      await lab.cleanup();
    }
  });
});
