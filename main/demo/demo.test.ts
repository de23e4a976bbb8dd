/** The demo: two simulated clusters, both monitored, the small lab's L4 flapping with reasons and events. */
import { afterAll, describe, expect, it } from 'vitest';
import { type DemoClusters, startDemoClusters } from '../../sim/demo.ts';
import { PLEG_MESSAGE } from '../../sim/scenarios/smalllab.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { AppCore } from '../fleet/app-core.ts';
import { ContextClient } from '../kube/context-client.ts';
import { loadKubeconfig } from '../kube/kubeconfig.ts';
import { openSettings } from '../settings/store.ts';
import { type Demo, startDemo } from './demo.ts';

let demo: Demo<DemoClusters> | null = null;
let flapping: SimContext | null = null;
let core: AppCore | null = null;
afterAll(async () => {
  core?.stop();
  await demo?.close();
  await flapping?.cleanup();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  for (let t = 0; t < ms && !(await check()); t += 25) await new Promise((r) => setTimeout(r, 25));
  expect(await check()).toBe(true);
};

describe('the demo', () => {
  it('monitors a home lab and a small lab from one kubeconfig, with throwaway settings', async () => {
    demo = await startDemo(startDemoClusters);
    const load = loadKubeconfig({ explicitPath: demo.kubeconfigPath });
    expect(load.kind === 'loaded' ? load.contexts.map((c) => c.name) : []).toEqual(['home-lab', 'small-lab']);
    core = new AppCore({
      settings: openSettings({ cwd: demo.settingsDir }),
      kubeconfig: { explicitPath: demo.kubeconfigPath },
      mode: 'browser',
      version: 'test',
      demo: true,
    });
    core.start();
    const c = core;
    await until(() => c.engine.snapshot().contexts.every((x) => x.inventory !== null));
    const byName = new Map(c.engine.snapshot().contexts.map((x) => [x.context, x.inventory]));
    expect(byName.get('home-lab')).toMatchObject({ total_gpu_nodes: 4, ready_gpu_nodes: 0 });
    const small = byName.get('small-lab');
    expect(small?.total_gpu_nodes).toBe(4);
    expect(small?.nodes.find((n) => n.name === 'lab-a100')?.mig?.strategy).toBe('mixed');
    expect(small?.nodes.find((n) => n.name === 'lab-4090')?.sharing).toMatchObject({
      strategy: 'time-slicing',
      replicas: 4,
    });
    const detail = await c.engine.nodeDetail('small-lab', 'lab-a100');
    expect(detail.pods.map((p) => p.name)).toEqual(['finetune-7b-q8m2d', 'notebook-alice']);
  });

  it("the small lab's L4 goes NotReady (PLEG) and back, posting the kubelet's events", async () => {
    flapping = await startSimContext({ scenario: 'smalllab:150' });
    const ctx = flapping.context('sim-admin');
    const client = new ContextClient(ctx);
    const ready = async () => {
      const n = (await client.getJson('/api/v1/nodes/lab-l4', 'reading')) as {
        status: { conditions: { type: string; status: string; message: string }[] };
      };
      return n.status.conditions.find((x) => x.type === 'Ready');
    };
    try {
      await until(async () => (await ready())?.status === 'False');
      expect((await ready())?.message).toBe(PLEG_MESSAGE);
      await until(async () => (await ready())?.status === 'True');
      const events = (await client.getJson(
        '/api/v1/events?fieldSelector=involvedObject.name%3Dlab-l4',
        'listing',
      )) as { items: { reason: string }[] };
      expect(events.items.map((e) => e.reason).sort()).toEqual(['NodeNotReady', 'NodeReady']);
    } finally {
      client.close();
    }
  });
});
