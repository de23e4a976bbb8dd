import { describe, expect, it } from 'vitest';
import { leaseBody, leaseUpdateBody, microTime, parseLease } from './lease-record.ts';

const lease = (spec: Record<string, unknown>, rv: unknown = '42') => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'gpu-fleet-controller', namespace: 'gpu-fleet', resourceVersion: rv },
  spec,
});

describe('lease record', () => {
  it('MicroTime has six fractional digits in UTC', () => {
    expect(microTime(Date.UTC(2026, 11, 1, 10, 3, 50, 147))).toBe('2026-12-01T10:03:50.147000Z');
  });

  it('reads a Lease, and writes back what it read', () => {
    const spec = {
      holderIdentity: 'gpu-fleet-controller-7d9f-abcde',
      leaseDurationSeconds: 15,
      acquireTime: '2026-12-01T10:03:50.147748Z',
      renewTime: '2026-12-01T10:04:02.000000Z',
      leaseTransitions: 2,
    };
    const got = parseLease(lease(spec));
    if (typeof got === 'string') throw new Error(got);
    expect(got.resourceVersion).toBe('42');
    expect(got.record).toEqual({
      holderIdentity: 'gpu-fleet-controller-7d9f-abcde',
      leaseDurationSeconds: 15,
      acquireTime: Date.parse('2026-12-01T10:03:50.147Z'),
      renewTime: Date.parse('2026-12-01T10:04:02Z'),
      leaseTransitions: 2,
    });
    const body = leaseUpdateBody(got, got.record);
    expect(body).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'gpu-fleet-controller', namespace: 'gpu-fleet', resourceVersion: '42' },
      spec: { ...spec, acquireTime: '2026-12-01T10:03:50.147000Z' },
    });
    expect(leaseBody('gpu-fleet', got.record)).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'gpu-fleet-controller',
        namespace: 'gpu-fleet',
        labels: { 'app.kubernetes.io/name': 'gpu-fleet', 'app.kubernetes.io/component': 'controller' },
      },
      spec: { ...spec, acquireTime: '2026-12-01T10:03:50.147000Z' },
    });
  });

  it('an update keeps the metadata it read and replaces only the spec', () => {
    const read = lease({ holderIdentity: 'a', leaseDurationSeconds: 15 });
    const meta = {
      ...read.metadata,
      uid: 'u-1',
      labels: { team: 'gpu', 'app.kubernetes.io/name': 'other' },
      annotations: { note: 'kept' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u-2' }],
    };
    const got = parseLease({ ...read, metadata: meta });
    if (typeof got === 'string') throw new Error(got);
    const record = { ...got.record, holderIdentity: 'b', leaseTransitions: 1 };
    expect(leaseUpdateBody(got, record)).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        ...meta,
        labels: {
          team: 'gpu',
          'app.kubernetes.io/name': 'gpu-fleet',
          'app.kubernetes.io/component': 'controller',
        },
      },
      spec: { holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 },
    });
  });

  it('an empty spec is an unheld lease (client-go reads missing fields as zero values)', () => {
    const got = parseLease(lease({}));
    expect(typeof got === 'string' ? got : got.record).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 0,
      acquireTime: null,
      renewTime: null,
      leaseTransitions: 0,
    });
  });

  it.each([
    [{ kind: 'ConfigMap', metadata: { resourceVersion: '1' } }, 'the answer is not a Lease'],
    [lease({}, null), 'the Lease has no resourceVersion'],
    [lease({ holderIdentity: 7 }), 'the Lease holderIdentity is not a string'],
    [lease({ leaseDurationSeconds: -1 }), 'the Lease leaseDurationSeconds is not a non-negative integer'],
    [lease({ leaseDurationSeconds: '15' }), 'the Lease leaseDurationSeconds is not a non-negative integer'],
    [lease({ leaseTransitions: 1.5 }), 'the Lease leaseTransitions is not a non-negative integer'],
    ['not an object', 'the answer is not a Lease'],
  ])('refuses %j', (body, problem) => {
    expect(parseLease(body)).toBe(problem);
  });

  it('caps a hostile holder identity', () => {
    const got = parseLease(lease({ holderIdentity: 'x'.repeat(10_000) }));
    expect(typeof got === 'string' ? got : got.record.holderIdentity.length).toBe(253);
  });
});
