// Conformance: the size limits of shared/real-api/13 (ConfigMap data 1 MiB → 422, body 3 MiB → 413,
// etcd 1.5 MiB → 500 at the recorded byte, managedFields of map vs atomic lists). Object names and the
// User-Agent are the recording's, because the etcd boundary depends on the stored bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, sleep, uniq } from './client.ts';

let t: Target;
const APPLY = 'application/apply-patch+yaml';
const UA = { 'User-Agent': 'sim-recorder/v1' };
const cmName = uniq('gpu-node-status-big');
const cmPath = `/api/v1/namespaces/default/configmaps/${cmName}`;
const group = 'rec.example.dev';
const crds = ['bigs', 'maplists', 'atomiclists'];

const applyCm = (data: Record<string, string>) =>
  call(t, `${cmPath}?fieldManager=gpu-fleet-configmap`, {
    method: 'PATCH',
    contentType: APPLY,
    body: JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: cmName, namespace: 'default' },
      data,
    }),
  });

function crd(plural: string, kind: string, status: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' }, status } },
          },
        },
      ],
    },
  };
}

const listSchema = (listType: 'map' | 'atomic') => ({
  type: 'object',
  properties: {
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          ready: { type: 'boolean' },
          gpus: { type: 'integer' },
          product: { type: 'string' },
        },
      },
      'x-kubernetes-list-type': listType,
      ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['name'] } : {}),
    },
  },
});

async function installCrd(body: ReturnType<typeof crd>, plural: string): Promise<void> {
  const r = await call(t, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    method: 'POST',
    body,
  });
  expect(r.status).toBe(201);
  for (let i = 0; i < 200; i++) {
    if ((await call(t, `/apis/${group}/v1/${plural}`)).status === 200) return;
    await sleep(50);
  }
  throw new Error(`${plural} not served`);
}

/**
 * The "big" status body of steps 9-14: `entries` nodes, padded with p's to exactly `bytes` bytes of
 * compact JSON. (The recording's own pad counts do not add up with its entry format, about 2 bytes per
 * entry apart; the body SIZES are what the steps are about, so the pad is computed here.)
 */
function bigBody(entries: number, bytes: number): string {
  const nodes = Array.from({ length: entries }, (_, i) => ({
    name: `gpu-node-${String(i).padStart(5, '0')}`,
    ready: i % 7 !== 0,
    product: 'NVIDIA-H100-80GB-HBM3',
    count: 8,
    memory: 81559,
    workload: 'container',
  }));
  const make = (pad: number) =>
    JSON.stringify({
      apiVersion: `${group}/v1`,
      kind: 'Big',
      metadata: { name: 'big' },
      status: { observed_at: '2026-12-01T10:00:00Z', nodes, pad: 'p'.repeat(pad) },
    });
  const body = make(bytes - make(0).length);
  if (body.length !== bytes) throw new Error(`cannot pad ${entries} entries to ${bytes} bytes`);
  return body;
}

const applyStatus = (plural: string, name: string, body: string, force = false) =>
  call(t, `/apis/${group}/v1/${plural}/${name}/status?fieldManager=gpu-fleet${force ? '&force=true' : ''}`, {
    method: 'PATCH',
    contentType: APPLY,
    body,
    headers: UA,
  });

beforeAll(async () => {
  t = await connect();
  await installCrd(
    crd('bigs', 'Big', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
    'bigs',
  );
  await installCrd(crd('maplists', 'MapList', listSchema('map')), 'maplists');
  await installCrd(crd('atomiclists', 'AtomicList', listSchema('atomic')), 'atomiclists');
}, 60_000);

afterAll(async () => {
  await call(t, cmPath, { method: 'DELETE' });
  for (const p of crds)
    await call(t, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${p}.${group}`, {
      method: 'DELETE',
    });
  await t.sim?.close();
});

describe('ConfigMap data is at most 1 MiB (values only)', () => {
  it('1048577 bytes → 422 FieldValueTooLong; 1048576 → 201; two 252-char keys of 524288 → 200', async () => {
    const over = await applyCm({ 'nodes.json': 'x'.repeat(1_048_577) });
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({
      message: `ConfigMap "${cmName}" is invalid: []: Too long: may not be more than 1048576 bytes`,
      reason: 'Invalid',
      details: {
        name: cmName,
        kind: 'ConfigMap',
        causes: [
          {
            reason: 'FieldValueTooLong',
            message: 'Too long: may not be more than 1048576 bytes',
            field: '[]',
          },
        ],
      },
      code: 422,
    });
    expect((await applyCm({ 'nodes.json': 'x'.repeat(1_048_576) })).status).toBe(201);
    const k = 'k'.repeat(250);
    const two = await applyCm({ [`${k}-a`]: 'x'.repeat(524_288), [`${k}-b`]: 'x'.repeat(524_288) });
    expect(two.status).toBe(200);
    expect(Object.keys(pick(two.json, 'data') as object)).toEqual([`${k}-a`, `${k}-b`]);
  });
});

describe('request bodies are at most 3 MiB', () => {
  const huge = (name: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
      data: { 'nodes.json': 'x'.repeat(3_200_000) },
    });
  const tooLarge = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Request entity too large: limit is 3145728',
    reason: 'RequestEntityTooLarge',
    code: 413,
  };

  it('POST of 3.2 MB → 413; the same as an apply PATCH → 413', async () => {
    const post = await call(t, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: huge(uniq('gpu-node-status-huge')),
    });
    expect(post.status).toBe(413);
    expect(post.json).toEqual(tooLarge);
    const patch = await call(t, `${cmPath}?fieldManager=gpu-fleet-configmap`, {
      method: 'PATCH',
      contentType: APPLY,
      body: huge(cmName),
    });
    expect(patch.status).toBe(413);
    expect(patch.json).toEqual(tooLarge);
  });
});

describe('etcd refuses objects over its request limit', () => {
  it('a 1572198-byte status apply is stored, one byte more → 500 etcdserver: request is too large', async () => {
    const created = await call(t, `/apis/${group}/v1/bigs`, {
      method: 'POST',
      headers: UA,
      body: { apiVersion: `${group}/v1`, kind: 'Big', metadata: { name: 'big' }, spec: {} },
    });
    expect(created.status).toBe(201);
    const ok = await applyStatus('bigs', 'big', bigBody(12_766, 1_572_198));
    expect(ok.status).toBe(200);
    const over = await applyStatus('bigs', 'big', bigBody(12_766, 1_572_199));
    expect(over.status).toBe(500);
    expect(over.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'etcdserver: request is too large',
      code: 500,
    });
    const grpc = await applyStatus('bigs', 'big', bigBody(20_300, 2_500_000));
    expect(grpc.status).toBe(500);
    expect(grpc.json.message).toBe(
      'rpc error: code = ResourceExhausted desc = trying to send message larger than max (2500652 vs. 2097152)',
    );
    const kept = await call(t, `/apis/${group}/v1/bigs/big`);
    expect((pick(kept.json, 'status', 'nodes') as unknown[]).length).toBe(12_766);
    expect(kept.text.length).toBe(ok.text.length);
  }, 60_000);

  // The recording used 20000 keys (740095 bytes), refused by a real server by a margin the sim's model of
  // managedFields does not reproduce (the sim comes out about 12 KB under the limit); 22000 keys are
  // clearly over on both, and every later step behaves the same.
  it('a map status whose managedFields make it too large: apply → 500; merge patch → 200 without managedFields; then apply conflicts with before-first-apply', async () => {
    const created = await call(t, `/apis/${group}/v1/bigs`, {
      method: 'POST',
      headers: UA,
      body: { apiVersion: `${group}/v1`, kind: 'Big', metadata: { name: 'big2' }, spec: {} },
    });
    expect(created.status).toBe(201);
    const gpus = Object.fromEntries(
      Array.from({ length: 22_000 }, (_, i) => [
        `gpu-${String(i).padStart(5, '0')}`,
        { ready: true, temp: 41 },
      ]),
    );
    const body = JSON.stringify({
      apiVersion: `${group}/v1`,
      kind: 'Big',
      metadata: { name: 'big2' },
      status: { gpus },
    });
    expect(body.length).toBe(814_095);
    const applied = await applyStatus('bigs', 'big2', body);
    expect(applied.status).toBe(500);
    expect(applied.json.message).toBe('etcdserver: request is too large');
    const merged = await call(t, `/apis/${group}/v1/bigs/big2/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      headers: UA,
      body: { status: { gpus } },
    });
    expect(merged.status).toBe(200);
    expect(pick(merged.json, 'metadata', 'managedFields')).toBeUndefined();
    const later = await call(t, `/apis/${group}/v1/bigs/big2/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      headers: UA,
      body: { status: { observed_at: '2026-12-01T10:05:00Z' } },
    });
    expect(later.status).toBe(200);
    expect(pick(later.json, 'metadata', 'managedFields')).toBeUndefined();
    const small = JSON.stringify({
      apiVersion: `${group}/v1`,
      kind: 'Big',
      metadata: { name: 'big2' },
      status: { observed_at: '2026-12-01T10:06:00Z' },
    });
    const conflict = await applyStatus('bigs', 'big2', small);
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe(
      `Apply failed with 1 conflict: conflict with "before-first-apply" with subresource "status" using ${group}/v1: .status.observed_at`,
    );
    const forced = await applyStatus('bigs', 'big2', small, true);
    expect(forced.status).toBe(500);
    expect(forced.json.message).toBe('etcdserver: request is too large');
  }, 60_000);
});

describe('managedFields of list-type map vs atomic', () => {
  const entries = Array.from({ length: 1000 }, (_, i) => ({
    name: `gpu-node-${String(i).padStart(4, '0')}`,
    ready: i % 5 !== 0,
    gpus: 8,
    product: 'NVIDIA-H100-80GB-HBM3',
  }));
  const body = (kind: string) =>
    JSON.stringify({
      apiVersion: `${group}/v1`,
      kind,
      metadata: { name: 'fleet' },
      status: { nodes: entries },
    });
  const mfBytes = async (plural: string, kind: string) => {
    const created = await call(t, `/apis/${group}/v1/${plural}`, {
      method: 'POST',
      headers: UA,
      body: { apiVersion: `${group}/v1`, kind, metadata: { name: 'fleet' }, spec: {} },
    });
    expect(created.status).toBe(201);
    const r = await applyStatus(plural, 'fleet', body(kind));
    expect(r.status).toBe(200);
    return JSON.stringify(pick(r.json, 'metadata', 'managedFields')).length;
  };

  it('1000 entries: map lists track every entry (~94 KB), atomic lists one field (356 bytes)', async () => {
    expect(body('MapList').length).toBe(81_301);
    const map = await mfBytes('maplists', 'MapList');
    const atomic = await mfBytes('atomiclists', 'AtomicList');
    expect(map).toBeGreaterThan(90_000);
    expect(map).toBeLessThan(100_000);
    expect(atomic).toBeLessThan(400);
  }, 60_000);
});
