// Conformance: coordination.k8s.io/v1 Leases (transcript 11, steps 2–16): create/get/update, 409 on a stale
// resourceVersion, MicroTime decoding (400 on POST/PUT, 422 on PATCH), validation, watch, table, discovery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target, WatchEvent } from './client.ts';
import { call, connect, pick, uniq, until, watch } from './client.ts';

let t: Target;
const ns = 'default';
const name = uniq('conf-lease');
const base = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
const path = `${base}/${name}`;
const lease = (spec: Record<string, unknown>, n = name) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: n, namespace: ns },
  spec,
});
const merge = (body: unknown) =>
  call(t, path, { method: 'PATCH', contentType: 'application/merge-patch+json', body });

beforeAll(async () => {
  t = await connect();
});
afterAll(async () => {
  await call(t, path, { method: 'DELETE' });
  await t.sim?.close();
});

describe('leases', () => {
  it('are in discovery, namespaced, with every verb', async () => {
    const r = await call(t, '/apis/coordination.k8s.io/v1');
    expect(r.status).toBe(200);
    const res = (r.json.resources as Record<string, unknown>[]).find((x) => x.name === 'leases');
    expect(res).toMatchObject({ kind: 'Lease', namespaced: true, singularName: 'lease' });
    expect(res?.verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    const groups = await call(t, '/apis');
    const names = (groups.json.groups as { name: string }[]).map((g) => g.name);
    expect(names).toContain('coordination.k8s.io');
  });

  it('create keeps leaseTransitions 0 and the six-digit MicroTimes, in struct order', async () => {
    const c = await call(t, base, {
      method: 'POST',
      body: lease({
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: '2026-12-01T10:03:50.147748Z',
        renewTime: '2026-12-01T10:03:50.147748Z',
        leaseTransitions: 0,
      }),
    });
    expect(c.status).toBe(201);
    expect(c.json.kind).toBe('Lease');
    expect(Object.keys(c.json.spec as object)).toEqual([
      'holderIdentity',
      'leaseDurationSeconds',
      'acquireTime',
      'renewTime',
      'leaseTransitions',
    ]);
    expect(pick(c.json, 'spec', 'leaseTransitions')).toBe(0);
    const g = await call(t, path);
    expect(g.status).toBe(200);
    expect(pick(g.json, 'spec', 'holderIdentity')).toBe('a');
  });

  it('PUT with the current resourceVersion is 200; with a stale one 409 with the real text', async () => {
    const cur = (await call(t, path)).json as Record<string, Record<string, unknown>>;
    const stale = structuredClone(cur);
    const next = structuredClone(cur);
    (next.spec as Record<string, unknown>).renewTime = '2026-12-01T10:03:51.365057Z';
    const ok = await call(t, path, { method: 'PUT', body: next });
    expect(ok.status).toBe(200);
    expect(pick(ok.json, 'metadata', 'resourceVersion')).not.toBe(cur.metadata?.resourceVersion);
    (stale.spec as Record<string, unknown>).renewTime = '2026-12-01T10:03:51.380928Z';
    const r = await call(t, path, { method: 'PUT', body: stale });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Operation cannot be fulfilled on leases.coordination.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      reason: 'Conflict',
      details: { name, group: 'coordination.k8s.io', kind: 'leases' },
      code: 409,
    });
  });

  it('strategic and merge patches; an offset is stored converted to UTC', async () => {
    const s = await call(t, path, {
      method: 'PATCH',
      contentType: 'application/strategic-merge-patch+json',
      body: { spec: { renewTime: '2026-12-01T10:03:52.493356Z' } },
    });
    expect(s.status).toBe(200);
    const m = await merge({ spec: { renewTime: '2026-12-01T12:03:52.506731+02:00' } });
    expect(m.status).toBe(200);
    expect(pick(m.json, 'spec', 'renewTime')).toBe('2026-12-01T10:03:52.506731Z');
  });

  it('a PATCH with a millisecond or nanosecond MicroTime is 422 embedding the patched object', async () => {
    const cur = (await call(t, path)).json;
    const rv = String(pick(cur, 'metadata', 'resourceVersion'));
    const r = await merge({ spec: { renewTime: '2026-12-01T10:03:52.519Z' } });
    expect(r.status).toBe(422);
    const msg = String(r.json.message);
    expect(
      msg.startsWith(
        ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"coordination.k8s.io/v1\\",\\"kind\\":\\"Lease\\",\\"metadata\\":{\\"name\\":',
      ),
    ).toBe(true);
    expect(msg).toContain(`\\"resourceVersion\\":\\"${rv}\\"`);
    expect(msg).toContain(
      '\\"spec\\":{\\"acquireTime\\":\\"2026-12-01T10:03:50.147748Z\\",\\"holderIdentity\\":\\"a\\",\\"leaseDurationSeconds\\":15,\\"leaseTransitions\\":0,\\"renewTime\\":\\"2026-12-01T10:03:52.519Z\\"}}": parsing time',
    );
    expect(
      msg.endsWith(
        ': parsing time "2026-12-01T10:03:52.519Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".519Z" as ".000000"',
      ),
    ).toBe(true);
    expect(r.json.details).toEqual({
      causes: [
        { reason: 'FieldValueInvalid', message: msg.slice(' "" is invalid: patch: '.length), field: 'patch' },
      ],
    });
    const nano = await merge({ spec: { renewTime: '2026-12-01T10:03:52.528764789Z' } });
    expect(nano.status).toBe(422);
    expect(String(nano.json.message)).toMatch(/: cannot parse "789Z" as "Z07:00"$/);
    expect(pick((await call(t, path)).json, 'metadata', 'resourceVersion')).toBe(rv);
  });

  it('a PUT or POST with a bad MicroTime is a short 400', async () => {
    const cur = (await call(t, path)).json as Record<string, Record<string, unknown>>;
    (cur.spec as Record<string, unknown>).renewTime = '2026-12-01T10:03:52.519Z';
    const r = await call(t, path, { method: 'PUT', body: cur });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-12-01T10:03:52.519Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".519Z" as ".000000"',
      reason: 'BadRequest',
      code: 400,
    });
    const p = await call(t, base, {
      method: 'POST',
      body: lease(
        { holderIdentity: 'x', leaseDurationSeconds: 15, renewTime: '2026-12-01T10:03:52Z' },
        uniq('bad-time'),
      ),
    });
    expect(p.status).toBe(400);
    expect(p.json.message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-12-01T10:03:52Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('leaseDurationSeconds 0 is 422 "must be greater than 0"', async () => {
    const r = await merge({ spec: { leaseDurationSeconds: 0 } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Lease.coordination.k8s.io "${name}" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`,
      reason: 'Invalid',
      details: {
        name,
        group: 'coordination.k8s.io',
        kind: 'Lease',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0: must be greater than 0',
            field: 'spec.leaseDurationSeconds',
          },
        ],
      },
      code: 422,
    });
  });

  it('a watch sees a renew and a handover, not a no-op patch', async () => {
    const rv = String(pick((await call(t, path)).json, 'metadata', 'resourceVersion'));
    const events: WatchEvent[] = [];
    const w = await watch(
      t,
      `${base}?watch=1&fieldSelector=metadata.name%3D${name}&resourceVersion=${rv}`,
      (e) => events.push(e),
    );
    expect(w.status).toBe(200);
    await merge({ spec: { renewTime: '2026-12-01T10:03:53.584546Z' } });
    const same = await merge({ spec: { renewTime: '2026-12-01T10:03:53.584546Z' } });
    await merge({
      spec: {
        holderIdentity: 'b',
        acquireTime: '2026-12-01T10:03:55.584684Z',
        renewTime: '2026-12-01T10:03:55.584684Z',
        leaseTransitions: 1,
      },
    });
    await until(() => events.length >= 2);
    w.stop();
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED']);
    expect(pick(events[0]?.object ?? {}, 'metadata', 'resourceVersion')).toBe(
      pick(same.json, 'metadata', 'resourceVersion'),
    );
    expect(pick(events[1]?.object ?? {}, 'spec', 'holderIdentity')).toBe('b');
  });

  it('the table has Name, Holder, Age', async () => {
    const r = await call(t, `${base}?limit=500`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    expect((r.json.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual([
      'Name',
      'Holder',
      'Age',
    ]);
    const row = (r.json.rows as { cells: unknown[] }[]).find((x) => x.cells[0] === name);
    expect(row?.cells[1]).toBe('b');
  });

  it('server-side apply creates and renews a Lease; a bad MicroTime is refused', async () => {
    const n = uniq('conf-apply-lease');
    const apply = (spec: Record<string, unknown>) =>
      call(t, `${base}/${n}?fieldManager=conf-elector`, {
        method: 'PATCH',
        contentType: 'application/apply-patch+yaml',
        body: JSON.stringify(lease(spec, n)),
      });
    const c = await apply({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      renewTime: '2026-12-01T10:00:00.000001+01:00',
    });
    expect(c.status).toBe(201);
    expect(pick(c.json, 'spec', 'renewTime')).toBe('2026-12-01T09:00:00.000001Z');
    const r = await apply({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      renewTime: '2026-12-01T10:00:05.000001Z',
    });
    expect(r.status).toBe(200);
    expect(pick(r.json, 'spec', 'renewTime')).toBe('2026-12-01T10:00:05.000001Z');
    const bad = await apply({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      renewTime: '2026-12-01T10:00:05Z',
    });
    expect(bad.status).toBe(422);
    expect(String(bad.json.message)).toMatch(/cannot parse "Z" as "\.000000"$/);
    await call(t, `${base}/${n}`, { method: 'DELETE' });
  });

  it('a wrongly typed field is the decoder error', async () => {
    const r = await call(t, base, {
      method: 'POST',
      body: lease({ leaseDurationSeconds: '15' }, uniq('bad-type')),
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
    );
  });
});
