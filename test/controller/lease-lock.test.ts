// The Lease lock against the sim over HTTPS: a Lease others made big (a 200 KiB annotation, within the
// API server's 256 KiB for annotations) is still read and taken over, so no replica is locked out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMING, decide } from '../../main/controller/leader-decision.ts';
import { leaseLock } from '../../main/controller/lease-lock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { type SimContext, startSimContext } from '../helpers/sim-context.ts';

let s: SimContext;
let admin: ContextClient;
beforeAll(async () => {
  s = await startSimContext();
  admin = new ContextClient(s.context('sim-admin'));
});
afterAll(async () => {
  admin.close();
  await s.cleanup();
});

describe('leaseLock', () => {
  it('reads and takes over a Lease of more than 64 KiB', async () => {
    const res = await admin.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      body: JSON.stringify({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'gpu-fleet-controller', annotations: { big: 'x'.repeat(200_000) } },
        spec: {
          holderIdentity: 'gone-0',
          leaseDurationSeconds: 15,
          renewTime: '2026-01-01T00:00:00.000000Z',
        },
      }),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    expect(res.status).toBe(201);
    const lock = leaseLock(admin, 'default', 4_000);
    const got = await lock.get();
    expect(got?.record.holderIdentity).toBe('gone-0');
    if (!got) throw new Error('no Lease');
    const now = Date.now();
    // Observed long ago: expired.
    const d = decide(got.record, now - 60_000, 'replica-a', now, DEFAULT_TIMING);
    if (d.kind !== 'write') throw new Error('not taken');
    const taken = await lock.update(d.record, got);
    expect(taken.record.holderIdentity).toBe('replica-a');
    expect((taken.object.metadata as { annotations: { big: string } }).annotations.big).toHaveLength(200_000);
  });
});
