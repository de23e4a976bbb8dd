import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  defaultIdentity,
  identityProblem,
  leaseBody,
  leaseUpdateBody,
  microTime,
  parseLease,
} from './lease-record.ts';

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

  it('keeps a hostile holder identity whole (the read is capped by size), so it is compared whole', () => {
    const got = parseLease(lease({ holderIdentity: 'x'.repeat(10_000) }));
    expect(typeof got === 'string' ? got : got.record.holderIdentity.length).toBe(10_000);
  });
});

describe('identityProblem: only ids the request headers can carry', () => {
  it.each([
    'gpu-fleet-controller-7d9f8b-x2k4q',
    'host_0b6f7c1e-8f5e-4b8e-9b8a-2f0c6d1e3a4b',
    'a'.repeat(253),
  ])('takes %s', (id) => {
    expect(identityProblem(id)).toBeNull();
  });

  it.each([
    ['', '""'],
    ['控制器-0', '"\\u63a7\\u5236\\u5668-0"'],
    ['pod\u202eevil', '"pod\\u202eevil"'],
    ['pod é', '"pod \\u00e9"'],
    ['pod 0', '"pod 0"'],
    ['a'.repeat(254), `"${'a'.repeat(80)}\\u2026"`],
  ])('refuses %j with a sentence', (id, quoted) => {
    expect(identityProblem(id)).toBe(
      `${quoted} cannot be used as --id: use the pod name (1-253 printable ASCII characters, no spaces; it is sent in request headers)`,
    );
  });

  it('an identity the server holds is read whole, however long', () => {
    const holder = `${'a'.repeat(253)}-someone-else`;
    const got = parseLease(lease({ holderIdentity: holder, leaseDurationSeconds: 15 }));
    expect(typeof got === 'string' ? got : got.record.holderIdentity).toBe(holder);
  });
});

describe('defaultIdentity', () => {
  it('is the host name, "_" and a random UUID: two controllers on one host never share it, and it passes identityProblem', () => {
    const a = defaultIdentity();
    const b = defaultIdentity();
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^${os.hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_[0-9a-f-]{36}$`));
    expect(identityProblem(a)).toBeNull();
  });
});
