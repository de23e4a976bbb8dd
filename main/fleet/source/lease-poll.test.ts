/**
 * The Lease poll against the sim over real HTTPS, on a ManualClock: one GET at start and one every
 * LEASE_POLL_MS (never a watch), a missing Lease read as none, a 403 reported as unreadable.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LeaderStandIn } from '../../../test/helpers/controller-writer.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { LEASE_POLL_MS, LeasePoller, type LeaseRead } from './lease-poll.ts';

let env: SimContext;
let writer: ContextClient;
beforeAll(async () => {
  env = await startSimContext({ scenario: 'homelab' });
  writer = new ContextClient(env.context('sim-revocable'));
  await new LeaderStandIn(writer).setUp(Date.now());
});
afterAll(async () => {
  writer?.close();
  await env?.cleanup();
});

const leaseRequests = (user: string) =>
  env.sim.control.requestLog().filter((r) => r.user === user && r.path.includes('/leases'));

function poller(context: string, namespace = 'gpu-fleet') {
  const clock = new ManualClock();
  const reads: LeaseRead[] = [];
  const p = new LeasePoller(
    { namespace, clock, makeClient: () => new ContextClient(env.context(context)), recheckMs: 300_000 },
    (r) => reads.push(r),
  );
  return { clock, reads, p };
}

it('reads the Lease by GET at start and once every LEASE_POLL_MS, never sooner', async () => {
  env.sim.control.resetRequestLog();
  const { clock, reads, p } = poller('sim-admin');
  try {
    p.start();
    await pollUntil(() => reads.length === 1, 'the first read');
    expect(reads[0]).toMatchObject({ kind: 'read', lease: { holder: 'controller-0', durationSeconds: 15 } });
    clock.advance(LEASE_POLL_MS - 1);
    // A round trip of our own, sent after any GET the poll would have started by now.
    await writer.getJson('/api/v1/namespaces/gpu-fleet', 'a round trip');
    expect(leaseRequests('sim-admin')).toHaveLength(1);
    expect(reads).toHaveLength(1);
    clock.advance(1);
    await pollUntil(() => reads.length === 2, 'the second read');
    clock.advance(LEASE_POLL_MS);
    await pollUntil(() => reads.length === 3, 'the third read');
    const requests = leaseRequests('sim-admin');
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.method === 'GET' && !/watch/.test(r.path))).toBe(true);
  } finally {
    p.stop();
  }
});

it('a namespace without the Lease reads as none; a 403 as unreadable', async () => {
  const missing = poller('sim-admin', 'elsewhere');
  const forbidden = poller('sim-readonly');
  try {
    missing.p.start();
    forbidden.p.start();
    await pollUntil(() => missing.reads.length === 1 && forbidden.reads.length === 1, 'both reads');
    expect(missing.reads[0]).toEqual({ kind: 'read', lease: null });
    expect(forbidden.reads[0]).toEqual({
      kind: 'unreadable',
      seen: { kind: 'unreadable', why: 'forbidden, 403' },
    });
  } finally {
    missing.p.stop();
    forbidden.p.stop();
  }
});
