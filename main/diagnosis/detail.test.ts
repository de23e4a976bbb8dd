/**
 * The node detail read from the simulator over HTTPS: what describe and the window panel show; and, on
 * its own, a detail of one page of events and pods says so when the server says more follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMEN2_MESSAGE } from '../../sim/scenarios/homelab.ts';
import { rawNode } from '../../test/fixtures/nodes.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import { assembleDetail, fetchNodeDetail } from './detail.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
});
afterAll(async () => {
  await sc?.cleanup();
});

async function detail(node: string, context = 'sim-admin') {
  const client = new ContextClient(sc.context(context));
  try {
    return await fetchNodeDetail(client, context, node, { now: Date.now() });
  } finally {
    client.close();
  }
}

describe('fetchNodeDetail against the sim', () => {
  it('shows why omen is down: Ready Unknown from the node controller, its events, no GPU pods', async () => {
    const d = await detail('omen');
    expect(d?.partial).toEqual([]);
    expect(d?.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      problem: true,
    });
    expect(d?.events.map((e) => e.reason)).toEqual(['NodeNotReady', 'InvalidDiskCapacity', 'Rebooted']);
    expect(d?.taints.map((t) => `${t.key}:${t.effect}`)).toContain(
      'node.kubernetes.io/unreachable:NoExecute',
    );
    expect(d?.system).toMatchObject({ kubeletVersion: 'v1.32.5', containerRuntime: 'containerd://1.7.22' });
    expect(d?.gpu).toMatchObject({ name: 'omen', ready: false, workload: 'vm-passthrough' });
    expect(d?.pods).toEqual([]);
  });

  it('shows omen2 NotReady from the container runtime, and its GPU pods (not the dcgm-exporter)', async () => {
    const d = await detail('omen2');
    expect(d?.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: OMEN2_MESSAGE,
    });
    expect(d?.pods).toEqual([
      { namespace: 'ml', name: 'llama-serve-7c9d5', phase: 'Running', gpus: 1 },
      { namespace: 'ml', name: 'whisper-batch-x2k4q', phase: 'Pending', gpus: 1 },
    ]);
    expect(d?.events[0]?.reason).toBe('ContainerGCFailed');
  });

  it('a CPU node has no GPU entry; an unknown node is null', async () => {
    expect((await detail('cpu1'))?.gpu).toBeNull();
    expect(await detail('no-such-node')).toBeNull();
    expect(await detail('constructor')).toBeNull();
  });

  it('a user who may read nodes and pods but not events still gets the node, with the part named', async () => {
    const d = await detail('omen', 'sim-readonly');
    expect(d?.partial).toEqual(['events: forbidden']);
    expect(d?.conditions.length).toBeGreaterThan(0);
    expect(d?.events).toEqual([]);
  });

  it('leaves no connection open once the client is closed, after many reads', async () => {
    const before = sc.sim.control.openConnections();
    for (let i = 0; i < 20; i++) await detail(i % 2 ? 'omen' : 'omen2');
    // Closed sockets leave the server's set on their 'close' event, a tick after the client destroyed them.
    for (let i = 0; i < 50 && sc.sim.control.openConnections() > before; i++)
      await new Promise((r) => setImmediate(r));
    expect(sc.sim.control.openConnections()).toBe(before);
  });

  it('times out on the injected clock when the server does not answer', async () => {
    const clock = new ManualClock();
    const client = new ContextClient(sc.context('sim-admin'), { clock });
    sc.sim.control.setLatency(60_000);
    try {
      const pending = fetchNodeDetail(client, 'sim-admin', 'omen', { now: clock.now(), timeoutMs: 5_000 });
      const settled = pending.then(
        () => 'answered',
        (e: Error) => e.message,
      );
      clock.advance(4_999);
      clock.advance(1);
      expect(await settled).toMatch(/did not answer in time/);
      expect(clock.pending).toBe(0);
    } finally {
      sc.sim.control.setLatency(0);
      client.close();
    }
  });
});

const list = (token?: string) => ({ kind: 'List', metadata: token ? { continue: token } : {}, items: [] });

describe('assembleDetail with more than one page', () => {
  const node = rawNode({ name: 'gpu-1', ready: 'True' });
  const opts = { now: Date.UTC(2026, 11, 1) };

  it('names each part of which only the first page was read', () => {
    const d = assembleDetail(
      'lab',
      'gpu-1',
      node,
      { ok: true, list: list('eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ') },
      { ok: true, list: list('next') },
      opts,
    );
    expect(d.partial).toEqual(['events: only the first 500 were read', 'pods: only the first 500 were read']);
  });

  it('says nothing when each part fitted one page', () => {
    const d = assembleDetail(
      'lab',
      'gpu-1',
      node,
      { ok: true, list: list() },
      { ok: true, list: list('') },
      opts,
    );
    expect(d.partial).toEqual([]);
  });
});
