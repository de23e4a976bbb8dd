// Conformance: Events about a Node through core/v1 and events.k8s.io/v1, Pods requesting nvidia.com/gpu
// on a node, and the field selectors GPU Fleet's node detail uses (transcript 12). Every test creates what
// it reads, under names unique to the run; the node itself need not exist (nothing checks it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq } from './client.ts';

let t: Target;
const node = uniq('conf-gpu-node');
const coreName = `${node}.187d3f0c2a9b1e01`;
const v1Name = `${node}.187d3f0c2a9b1e02`;
const podName = uniq('conf-gpu-pod');
const donePod = `${podName}-done`;
const enc = (s: string) => encodeURIComponent(s);

const coreEvent = (namespace: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: coreName, namespace },
  involvedObject: { kind: 'Node', name: node, apiVersion: 'v1' },
  reason: 'NodeNotReady',
  message: `Node ${node} status is now: NodeNotReady`,
  source: { component: 'node-controller' },
  firstTimestamp: '2026-12-01T10:02:26Z',
  lastTimestamp: '2026-12-01T10:04:01Z',
  count: 3,
  type: 'Normal',
});

const gpuPod = (name: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'gpu-burn' } },
  spec: {
    nodeName: node,
    containers: [
      {
        name: 'cuda',
        image: 'nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04',
        command: ['sleep', 'infinity'],
        resources,
      },
    ],
    ...extra,
  },
});

beforeAll(async () => {
  t = await connect();
});

afterAll(async () => {
  await call(t, `/api/v1/namespaces/default/events/${coreName}`, { method: 'DELETE' });
  await call(t, `/apis/events.k8s.io/v1/namespaces/kube-system/events/${v1Name}`, { method: 'DELETE' });
  for (const p of [podName, donePod])
    await call(t, `/api/v1/namespaces/default/pods/${p}?gracePeriodSeconds=0`, { method: 'DELETE' });
  await t.sim?.close();
});

describe('events about a node', () => {
  it('refuses an old-style event about a cluster-scoped object outside "default" (422)', async () => {
    const r = await call(t, '/api/v1/namespaces/kube-public/events', {
      method: 'POST',
      body: coreEvent('kube-public'),
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      `Event "${coreName}" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace`,
    );
  });

  it('creates a core/v1 event in "default" and an events.k8s.io/v1 one in kube-system', async () => {
    const c = await call(t, '/api/v1/namespaces/default/events', {
      method: 'POST',
      body: coreEvent('default'),
    });
    expect(c.status).toBe(201);
    expect(c.json).toMatchObject({
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
      count: 3,
    });
    const v = await call(t, '/apis/events.k8s.io/v1/namespaces/kube-system/events', {
      method: 'POST',
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: v1Name, namespace: 'kube-system' },
        eventTime: '2026-12-01T10:04:01.521958Z',
        reportingController: 'gpu-fleet.example.dev/health-monitor',
        reportingInstance: 'gpu-fleet-health-monitor-x2k4q',
        action: 'CheckGpu',
        reason: 'NodeNotReady',
        regarding: { kind: 'Node', name: node, apiVersion: 'v1' },
        note: 'GPU 0 has fallen off the bus (Xid 79)',
        type: 'Warning',
      },
    });
    expect(v.status).toBe(201);
    expect(v.json).toMatchObject({
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
  });

  it('events.k8s.io/v1 validates strictly: eventTime required, deprecated fields unset (422)', async () => {
    const r = await call(t, '/apis/events.k8s.io/v1/namespaces/default/events', {
      method: 'POST',
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: `${node}.187d3f0c2a9b1e03`, namespace: 'default' },
        reason: 'NodeNotReady',
        regarding: { kind: 'Node', name: node, apiVersion: 'v1' },
        note: 'x',
        type: 'Normal',
        deprecatedCount: 3,
        deprecatedSource: { component: 'node-controller' },
      },
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      `Event "${node}.187d3f0c2a9b1e03" is invalid: [eventTime: Required value, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]`,
    );
  });

  it('lists both through core/v1 with involvedObject selectors, each in the core form', async () => {
    const sel = enc(`involvedObject.kind=Node,involvedObject.name=${node}`);
    const all = await call(t, `/api/v1/events?fieldSelector=${sel}`);
    expect(all.status).toBe(200);
    expect(all.json.kind).toBe('EventList');
    const items = all.json.items as Record<string, unknown>[];
    expect(items.map((i) => pick(i, 'metadata', 'name')).sort()).toEqual([coreName, v1Name]);
    const converted = items.find((i) => pick(i, 'metadata', 'name') === v1Name);
    expect(converted).toMatchObject({
      involvedObject: { kind: 'Node', name: node },
      message: 'GPU 0 has fallen off the bus (Xid 79)',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      reportingComponent: 'gpu-fleet.example.dev/health-monitor',
    });
    expect(converted?.count).toBeUndefined();
    const inDefault = await call(t, `/api/v1/namespaces/default/events?fieldSelector=${sel}`);
    expect((inDefault.json.items as unknown[]).map((i) => pick(i, 'metadata', 'name'))).toEqual([coreName]);
  });

  it('lists through events.k8s.io/v1 with regarding selectors, core events in the new form', async () => {
    const r = await call(
      t,
      `/apis/events.k8s.io/v1/events?fieldSelector=${enc(`regarding.kind=Node,regarding.name=${node}`)}`,
    );
    expect(r.status).toBe(200);
    const mine = (r.json.items as Record<string, unknown>[]).find(
      (i) => pick(i, 'metadata', 'name') === coreName,
    );
    expect(mine).toMatchObject({
      eventTime: null,
      note: `Node ${node} status is now: NodeNotReady`,
      deprecatedSource: { component: 'node-controller' },
      deprecatedCount: 3,
      deprecatedLastTimestamp: '2026-12-01T10:04:01Z',
    });
  });

  it.each([
    ['/api/v1/events', 'message'],
    ['/api/v1/events', 'regarding.name'],
    ['/apis/events.k8s.io/v1/events', 'involvedObject.name'],
    ['/apis/events.k8s.io/v1/events', 'note'],
    ['/apis/events.k8s.io/v1/events', 'source'],
  ])('%s refuses the field selector %s (400)', async (path, field) => {
    const r = await call(t, `${path}?fieldSelector=${enc(`${field}=x`)}`);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ reason: 'BadRequest', message: `field label not supported: ${field}` });
  });
});

describe('pods on a node', () => {
  it('creates a pod with nvidia.com/gpu limits: requests copied, BestEffort, default tolerations', async () => {
    const r = await call(t, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: gpuPod(podName, { limits: { 'nvidia.com/gpu': '1' } }),
    });
    expect(r.status).toBe(201);
    expect(pick(r.json, 'spec', 'containers', 0, 'resources')).toEqual({
      limits: { 'nvidia.com/gpu': '1' },
      requests: { 'nvidia.com/gpu': '1' },
    });
    expect(pick(r.json, 'status')).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(pick(r.json, 'spec', 'tolerations')).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const done = await call(t, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: gpuPod(donePod, { limits: { 'nvidia.com/gpu': '1' } }, { restartPolicy: 'Never' }),
    });
    expect(done.status).toBe(201);
    const st = await call(t, `/api/v1/namespaces/default/pods/${donePod}/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { phase: 'Succeeded' } },
    });
    expect(st.status).toBe(200);
  });

  it('refuses a pod whose ServiceAccount does not exist (403, ServiceAccount admission)', async () => {
    const r = await call(t, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: gpuPod(
        `${podName}-sa`,
        { limits: { 'nvidia.com/gpu': '1' } },
        { serviceAccountName: 'no-such-sa-conf' },
      ),
    });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe(
      `pods "${podName}-sa" is forbidden: error looking up service account default/no-such-sa-conf: serviceaccount "no-such-sa-conf" not found`,
    );
  });

  it('refuses GPU requests without an equal limit (422)', async () => {
    const only = await call(t, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: gpuPod(`${podName}-r`, { requests: { 'nvidia.com/gpu': '1' } }),
    });
    expect(only.status).toBe(422);
    expect(only.json.message).toBe(
      `Pod "${podName}-r" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`,
    );
    const mismatch = await call(t, '/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: gpuPod(`${podName}-m`, {
        requests: { 'nvidia.com/gpu': '1' },
        limits: { 'nvidia.com/gpu': '2' },
      }),
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.message).toBe(
      `Pod "${podName}-m" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2`,
    );
  });

  it('selects pods by spec.nodeName (and its alias spec.host) and status.phase', async () => {
    const names = async (sel: string) => {
      const r = await call(t, `/api/v1/pods?fieldSelector=${enc(sel)}`);
      expect(r.status).toBe(200);
      expect(r.json.kind).toBe('PodList');
      return (r.json.items as unknown[]).map((i) => pick(i, 'metadata', 'name')).sort();
    };
    expect(await names(`spec.nodeName=${node}`)).toEqual([podName, donePod].sort());
    expect(await names(`spec.host=${node}`)).toEqual([podName, donePod].sort());
    expect(await names(`spec.nodeName=${node},status.phase!=Succeeded,status.phase!=Failed`)).toEqual([
      podName,
    ]);
    const bad = await call(t, `/api/v1/pods?fieldSelector=${enc('spec.containers.image=x')}`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('field label not supported: spec.containers.image');
  });

  it('deletes a pod bound to a node gracefully (marked), and at once with gracePeriodSeconds 0', async () => {
    const soft = await call(t, `/api/v1/namespaces/default/pods/${podName}`, { method: 'DELETE' });
    expect(soft.status).toBe(200);
    expect(pick(soft.json, 'metadata', 'deletionGracePeriodSeconds')).toBe(30);
    expect(pick(soft.json, 'metadata', 'generation')).toBe(2);
    expect((await call(t, `/api/v1/namespaces/default/pods/${podName}`)).status).toBe(200);
    const options = JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
    // With a Content-Length, as kubectl sends it (Node's server refuses a chunked DELETE body with a bare 400).
    const hard = await call(t, `/api/v1/namespaces/default/pods/${podName}`, {
      method: 'DELETE',
      body: options,
      headers: { 'Content-Length': String(Buffer.byteLength(options)) },
    });
    expect(hard.status).toBe(200);
    expect(hard.json.kind).toBe('Pod');
    const gone = await call(t, `/api/v1/namespaces/default/pods/${podName}`);
    expect(gone.status).toBe(404);
    expect(gone.json.message).toBe(`pods "${podName}" not found`);
  });
});

describe('node GET by name', () => {
  it('answers 404 NotFound for a name like __proto__ that was never created', async () => {
    const r = await call(t, '/api/v1/nodes/__proto__');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      reason: 'NotFound',
      message: 'nodes "__proto__" not found',
      details: { name: '__proto__', kind: 'nodes' },
    });
  });
});
