/**
 * Events about GPU nodes watched while monitoring (engine option nodeEvents), against the sim over real
 * HTTPS: the list and watch use the field selector a real server supports, a new event and a higher count
 * of the same one are passed on, events about other nodes are not, and a user who may not read events
 * gets one sentence while the nodes are still watched. Engine time is a ManualClock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeEventView } from '../../common/node-detail.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { ContextClient } from '../kube/context-client.ts';
import { FleetEngine } from './engine.ts';
import { EVENTS_FORBIDDEN } from './node-event-feed.ts';

const sims: SimContext[] = [];
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await Promise.all(sims.splice(0).map((s) => s.cleanup()));
});

async function start(context = 'sim-admin') {
  const env = await startSimContext({ scenario: 'homelab' });
  sims.push(env);
  const clock = new ManualClock();
  const debug: string[] = [];
  const e = new FleetEngine({ clock, nodeEvents: true, debug: (_ctx, line) => debug.push(line) });
  engine = e;
  const seen: { node: string; events: NodeEventView[] }[] = [];
  e.on((ev) => {
    if (ev.type === 'node-events') seen.push({ node: ev.node, events: ev.events });
  });
  e.setContexts([env.context(context)]);
  const until = (check: () => boolean, what: string) =>
    pollUntil(check, what, { each: () => clock.advance(0) });
  return { env, e, seen, debug, until };
}

function event(node: string, name: string, count: number, rv?: string) {
  const at = new Date().toISOString();
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name, namespace: 'default', ...(rv ? { resourceVersion: rv } : {}) },
    involvedObject: { kind: 'Node', name: node, apiVersion: 'v1' },
    reason: 'NodeNotReady',
    message: `Node ${node} status is now: NodeNotReady`,
    source: { component: 'node-controller' },
    firstTimestamp: at,
    lastTimestamp: at,
    count,
    type: 'Normal',
  };
}

async function post(env: SimContext, body: object, method = 'POST', name = '') {
  const client = new ContextClient(env.context('sim-admin'));
  const path = `/api/v1/namespaces/default/events${name ? `/${name}` : ''}`;
  const r = await client.request(method, path, {
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  expect(r.status, r.body).toBeLessThan(300);
  return JSON.parse(r.body) as { metadata: { uid: string; resourceVersion: string } };
}

describe('events about GPU nodes while monitoring', () => {
  it('passes on a new event and a higher count of it, for GPU nodes only, over the field-selected watch', async () => {
    const { env, e, seen, until } = await start();
    await until(() => e.snapshot().contexts[0]?.inventory?.total_gpu_nodes === 4, 'the node list');
    const made = await post(env, event('nuc2', 'nuc2.1', 1));
    await post(env, event('cpu1', 'cpu1.1', 1));
    await until(() => seen.length >= 1, 'the first event');
    await post(env, event('nuc2', 'nuc2.1', 3, made.metadata.resourceVersion), 'PUT', 'nuc2.1');
    await until(() => seen.some((s) => s.events.some((x) => x.count === 3)), 'the higher count');
    expect(seen.map((s) => s.node)).toEqual(['nuc2', 'nuc2']);
    // The list the watch started from asked for the events about Nodes, as a real server serves them.
    const lists = env.sim.control.requestLog().filter((r) => r.path.startsWith('/api/v1/events?'));
    expect(lists.length).toBeGreaterThan(0);
    for (const r of lists) {
      expect(r.path).toContain('fieldSelector=involvedObject.kind%3DNode');
      expect(r.status).toBe(200);
    }
    expect(seen.flatMap((s) => s.events.map((x) => [x.uid, x.count, x.reason]))).toEqual([
      [made.metadata.uid, 1, 'NodeNotReady'],
      [made.metadata.uid, 3, 'NodeNotReady'],
    ]);
  });

  it('a user who may list nodes but not events: one sentence, and the nodes are still watched', async () => {
    const { e, debug, until } = await start('sim-nodesonly');
    await until(() => debug.includes(EVENTS_FORBIDDEN), 'the forbidden events list');
    await until(() => e.snapshot().contexts[0]?.connection.phase === 'live', 'the node watch');
    expect(e.snapshot().contexts[0]?.inventory?.total_gpu_nodes).toBe(4);
    expect(debug.filter((l) => l === EVENTS_FORBIDDEN)).toHaveLength(1);
  });
});
