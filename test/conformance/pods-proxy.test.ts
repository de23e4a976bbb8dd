// Conformance: the pods/proxy subresource GPU Fleet scrapes DCGM exporters through (transcript 12 steps
// 37-43): a pod without a proxyable IP, a loopback IP, a missing pod, a user without pods/proxy, the
// name forms the apiserver parses. The DCGM metrics themselves are sim-only (no real exporter here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, uniq } from './client.ts';

let t: Target;
const pod = uniq('conf-dcgm-exporter');
const node = uniq('conf-gpu-node');

beforeAll(async () => {
  t = await connect();
  const r = await call(t, '/api/v1/namespaces/default/pods', {
    method: 'POST',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: pod, namespace: 'default', labels: { app: 'dcgm-exporter' } },
      spec: {
        nodeName: node,
        containers: [
          {
            name: 'dcgm-exporter',
            image: 'nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04',
            ports: [{ name: 'metrics', containerPort: 9400 }],
          },
        ],
      },
    },
  });
  expect(r.status).toBe(201);
});

afterAll(async () => {
  await call(t, `/api/v1/namespaces/default/pods/${pod}?gracePeriodSeconds=0`, { method: 'DELETE' });
  await t.sim?.close();
});

const addressNotAllowed = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'address not allowed',
  reason: 'BadRequest',
  code: 400,
};

describe('pods/proxy', () => {
  it('a pod with no IP: 400 address not allowed, with or without the port, with or without Accept', async () => {
    for (const path of [
      `${pod}:9400/proxy/metrics`,
      `${pod}/proxy/metrics`,
      `http:${pod}:9400/proxy/metrics`,
    ]) {
      const r = await call(t, `/api/v1/namespaces/default/pods/${path}`);
      expect(r.status).toBe(400);
      expect(r.json).toEqual(addressNotAllowed);
    }
    const bare = await call(t, `/api/v1/namespaces/default/pods/${pod}:9400/proxy/metrics`, {
      headers: { Accept: '' },
    });
    expect(bare.status).toBe(400);
    expect(bare.headers['content-type']).toBe('application/json');
  });

  it('a pod that does not exist: 404 by the pod name, without the port', async () => {
    const missing = uniq('conf-nope');
    const r = await call(t, `/api/v1/namespaces/default/pods/${missing}:9400/proxy/metrics`);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "${missing}" not found`,
      reason: 'NotFound',
      details: { name: missing, kind: 'pods' },
      code: 404,
    });
  });

  it('a user without pods/proxy: 403 naming the subresource and the whole name:port', async () => {
    if (!t.readonlyToken) return;
    const r = await call(t, `/api/v1/namespaces/default/pods/${pod}:9400/proxy/metrics`, {
      token: t.readonlyToken,
    });
    expect(r.status).toBe(403);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.json.reason).toBe('Forbidden');
    expect(r.json.details).toEqual({ name: `${pod}:9400`, kind: 'pods' });
    expect(String(r.json.message)).toMatch(
      new RegExp(
        `^pods "${pod}:9400" is forbidden: User ".+" cannot get resource "pods/proxy" in API group "" in the namespace "default"$`,
      ),
    );
  });

  it('a loopback pod IP is still 400 address not allowed (no connection is made)', async () => {
    const p = await call(t, `/api/v1/namespaces/default/pods/${pod}/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] } },
    });
    expect(p.status).toBe(200);
    const r = await call(t, `/api/v1/namespaces/default/pods/${pod}:9400/proxy/metrics`);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(addressNotAllowed);
  });
});

describe('pods/proxy to a simulated DCGM exporter (sim only)', () => {
  it('serves dcgm-exporter metric text; an unknown name form is 400; a stopped pod is 503', async () => {
    const sim = t.sim;
    if (!sim) return;
    const [name] = sim.control.addDcgmExporters(['omen']);
    const base = `/api/v1/namespaces/gpu-operator/pods/${name}`;
    sim.control.setGpuXid('omen', 0, 79);
    sim.control.setGpuTemperature('omen', 0, 91);
    const r = await call(t, `${base}:9400/proxy/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.text).toContain(
      '# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n',
    );
    expect(r.text).toMatch(
      /^DCGM_FI_DEV_XID_ERRORS\{gpu="0",UUID="GPU-[0-9a-f-]{36}",pci_bus_id="00000000:07:00\.0",device="nvidia0",modelName="NVIDIA [^"]+",Hostname="omen",DCGM_FI_DRIVER_VERSION="[0-9.]+"\} 79$/m,
    );
    expect(r.text).toMatch(/^DCGM_FI_DEV_GPU_TEMP\{gpu="0",.*\} 91$/m);
    // The port defaults to the first containerPort; https to a plain-HTTP exporter fails to handshake.
    expect((await call(t, `${base}/proxy/metrics`)).status).toBe(200);
    expect(
      (
        await call(
          t,
          `https:${name}:9400/proxy/metrics`.replace(/^/, '/api/v1/namespaces/gpu-operator/pods/'),
        )
      ).status,
    ).toBe(503);
    const other = await call(t, `${base}:9401/proxy/metrics`);
    expect(other.status).toBe(503);
    expect(other.json.message).toMatch(
      /^error trying to reach service: dial tcp 10\.244\.\d+\.\d+:9401: connect: connection refused$/,
    );
    const bad = await call(t, `/api/v1/namespaces/gpu-operator/pods/ftp:${name}:9400/proxy/metrics`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(`invalid pod request "ftp:${name}:9400"`);
    const notFound = await call(t, `${base}:9400/proxy/nope`);
    expect(notFound.status).toBe(404);
    expect(notFound.text).toBe('404 page not found\n');
    sim.control.removeGpu('omen', 0);
    expect((await call(t, `${base}:9400/proxy/metrics`)).text).not.toContain('gpu="0"');
    const stop = await call(t, `${base}/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { phase: 'Succeeded' } },
    });
    expect(stop.status).toBe(200);
    expect((await call(t, `${base}:9400/proxy/metrics`)).status).toBe(503);
  });

  it('the home lab: only omen2 (container mode) has an exporter with a pod IP', async () => {
    if (!t.sim) return;
    const list = await call(
      t,
      '/api/v1/namespaces/gpu-operator/pods?labelSelector=app%3Dnvidia-dcgm-exporter',
    );
    const items = list.json.items as { metadata: { name: string }; spec: { nodeName: string } }[];
    const omen2 = items.find((p) => p.spec.nodeName === 'omen2');
    expect(omen2).toBeDefined();
    const r = await call(
      t,
      `/api/v1/namespaces/gpu-operator/pods/${omen2?.metadata.name}:9400/proxy/metrics`,
    );
    expect(r.status).toBe(200);
    expect(r.text).toContain('modelName="NVIDIA GeForce RTX 4070 SUPER",Hostname="omen2"');
    const nuc1 = items.find((p) => p.spec.nodeName === 'nuc1');
    const n = await call(t, `/api/v1/namespaces/gpu-operator/pods/${nuc1?.metadata.name}:9400/proxy/metrics`);
    expect(n.status).toBe(400);
  });
});
