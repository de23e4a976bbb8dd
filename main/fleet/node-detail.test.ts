/** The `node:detail` channel through the engine against the sim: validated, on demand, and leak-free. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { FleetEngine } from './engine.ts';
import { dispatchInvoke, type InvokeHandlers } from './host.ts';

let sc: SimContext;
let engine: FleetEngine;
const clock = new ManualClock(Date.now());
let handlers: InvokeHandlers;

beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  // The admin and read-only contexts reach one cluster; kept apart here to read with each one's rights.
  engine = new FleetEngine({ clock, mergeSameCluster: () => false });
  engine.setContexts([sc.context('sim-admin'), sc.context('sim-readonly')]);
  handlers = {
    'node:detail': (c: string, n: string) => engine.nodeDetail(c, n),
  } as unknown as InvokeHandlers;
  for (let i = 0; i < 250 && engine.snapshot().contexts.some((c) => c.inventory === null); i++)
    await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  engine?.stop();
  await sc?.cleanup();
});

const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
};

describe('node:detail', () => {
  it('answers the detail of a node of a monitored context', async () => {
    const r = await dispatchInvoke(handlers, 'node:detail', ['sim-admin', 'omen2']);
    expect(r.ok).toBe(true);
    const d = r.ok ? (r.value as { name: string; pods: unknown[]; gpu: { last_seen?: unknown } }) : null;
    expect(d?.name).toBe('omen2');
    expect(d?.pods).toHaveLength(2);
  });

  it.each([
    [['sim-admin'], 400],
    [['sim-admin', 'Not A Node Name'], 400],
    [['sim-admin', 'x'.repeat(254)], 400],
    [[42, 'omen'], 400],
  ])('refuses the arguments %j with %d', async (args, status) => {
    const r = await dispatchInvoke(handlers, 'node:detail', args);
    expect(r.ok ? 200 : r.status).toBe(status);
  });

  it.each([
    ['nope', 'omen', '"nope" is not a monitored context.'],
    ['toString', 'omen', '"toString" is not a monitored context.'],
    ['sim-admin', 'no-such-node', 'sim-admin has no node named no-such-node.'],
    ['sim-admin', 'constructor', 'sim-admin has no node named constructor.'],
  ])('answers one sentence for %s / %s', async (context, node, sentence) => {
    const r = await dispatchInvoke(handlers, 'node:detail', [context, node]);
    expect(r).toEqual({ ok: false, status: 500, kind: 'failed', error: sentence });
  });

  it('names the parts a read-only user may not read, and still shows the node', async () => {
    const d = await engine.nodeDetail('sim-readonly', 'omen');
    expect(d.partial).toEqual(['events: forbidden']);
    expect(d.conditions.some((c) => c.type === 'Ready' && c.problem)).toBe(true);
  });

  it('refuses more than a few reads at once with one sentence, and serves again after', async () => {
    sc.sim.control.setLatency(300);
    try {
      const reads = Array.from({ length: 10 }, () =>
        engine.nodeDetail('sim-admin', 'omen').then(
          () => 'ok',
          (e: Error) => e.message,
        ),
      );
      const results = await Promise.all(reads);
      expect(results.filter((r) => r === 'ok')).toHaveLength(8);
      expect(results.filter((r) => r !== 'ok')).toEqual([
        'Too many node details are being read at once; try again in a moment.',
        'Too many node details are being read at once; try again in a moment.',
      ]);
    } finally {
      sc.sim.control.setLatency(0);
    }
    expect((await engine.nodeDetail('sim-admin', 'omen')).name).toBe('omen');
  });

  it('opening the detail 100 times leaves no connection or timer behind', async () => {
    await settle();
    const connections = sc.sim.control.openConnections();
    const timers = clock.pending;
    const watches = sc.sim.control.requestLog().filter((e) => e.path.includes('watch=')).length;
    for (let i = 0; i < 100; i++) await engine.nodeDetail('sim-admin', i % 2 ? 'omen' : 'nuc1');
    await settle();
    expect(sc.sim.control.openConnections()).toBe(connections);
    expect(clock.pending).toBe(timers);
    expect(sc.sim.control.requestLog().filter((e) => e.path.includes('watch=')).length).toBe(watches);
  });
});
