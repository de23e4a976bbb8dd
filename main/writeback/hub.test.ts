import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WritebackState } from '../../common/fleet.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import type { EngineEvent } from '../fleet/engine.ts';
import type { ContextClient } from '../kube/context-client.ts';
import { type WritebackHost, WritebackHub } from './hub.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'empty' });
});
afterAll(async () => {
  await sc?.cleanup();
});

/** An engine stand-in that records setWriteback, and clients that count requests and closes. */
function setup() {
  const states = new Map<string, WritebackState>();
  let listener: (e: EngineEvent) => void = () => undefined;
  const host: WritebackHost = {
    on: (l) => {
      listener = l;
      return () => undefined;
    },
    setWriteback: (c, s) => states.set(c, s),
    snapshot: () => ({ contexts: [] }),
  };
  const clients: { name: string; requests: number; closed: boolean }[] = [];
  const clock = new ManualClock();
  const hub = new WritebackHub(host, {
    clock,
    makeClient: (ctx) => {
      const c = { name: ctx.name, requests: 0, closed: false };
      clients.push(c);
      return {
        request: async () => {
          c.requests++;
          return { status: 404, headers: {}, body: '404 page not found\n' };
        },
        close: () => {
          c.closed = true;
        },
      } as unknown as ContextClient;
    },
  });
  return { hub, states, clients, clock, emit: (e: EngineEvent) => listener(e) };
}

const inventory = {
  observed_at: '2026-11-29T21:00:00Z',
  total_gpu_nodes: 0,
  ready_gpu_nodes: 0,
  total_gpus: 0,
  nodes: [],
};

describe('WritebackHub', () => {
  it('runs write-back only where it is on, feeds it inventory events, restarts on a settings change', async () => {
    const { hub, states, clients, clock, emit } = setup();
    const contexts = [sc.context('sim-admin'), sc.context('sim-readonly')];
    const settings = { group: 'gpufleet.io', configMapNamespace: 'kube-system' };
    hub.set(contexts, (c) => (c.name === 'sim-admin' ? settings : null));
    expect([states.get('sim-admin')?.phase, states.get('sim-readonly')?.phase]).toEqual(['idle', 'off']);
    const first = hub.get('sim-admin');

    emit({ type: 'inventory', context: 'sim-admin', inventory, stale: false, source: 'nodes' });
    clock.advance(0);
    await expect.poll(() => states.get('sim-admin')?.phase).toBe('crd-missing');

    hub.set(contexts, (c) => (c.name === 'sim-admin' ? { ...settings } : null));
    expect(hub.get('sim-admin')).toBe(first);
    hub.set(contexts, (c) => (c.name === 'sim-admin' ? { ...settings, group: 'other.example.com' } : null));
    expect(hub.get('sim-admin')).not.toBe(first);
    expect(clients.map((c) => c.closed)).toEqual([true, false]);

    hub.stop();
    expect(clients.every((c) => c.closed)).toBe(true);
    expect(states.get('sim-admin')?.phase).toBe('off');
  });
});
