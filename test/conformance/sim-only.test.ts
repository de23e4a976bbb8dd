// Simulator-only checks (skipped against a real cluster): controls, compaction, restart, failures, homelab data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, until, watch, watchUntilEnd } from './client.ts';

const external = Boolean(process.env.GPU_FLEET_CONFORMANCE_KUBECONFIG);
let t: Target;

beforeAll(async () => {
  if (!external) t = await connect();
});
afterAll(async () => {
  await t?.sim?.close();
});

describe.skipIf(external)('simulator controls', () => {
  it('homelab has the SPEC lab: 8 nodes, 4 GPU nodes all NotReady, one labelled RTX 4070', async () => {
    const r = await call(t, '/api/v1/nodes?labelSelector=nvidia.com%2Fgpu.present%3Dtrue');
    const items = r.json.items as unknown[];
    expect(items.map((i) => pick(i, 'metadata', 'name'))).toEqual(['nuc1', 'nuc2', 'omen', 'omen2']);
    for (const i of items) {
      const ready = (pick(i, 'status', 'conditions') as { type: string; status: string }[]).find(
        (c) => c.type === 'Ready',
      );
      expect(ready?.status).not.toBe('True');
    }
    expect(pick(items[0], 'metadata', 'labels', 'nvidia.com/gpu.count')).toBe('1');
    expect((await call(t, '/version')).json.gitVersion).toBe('v1.32.5');
    expect(t.sim?.control.listNodeNames()).toHaveLength(8);
  });

  it('setNodeReady / setNodeLabels show up as watch events', async () => {
    const got: string[] = [];
    const w = await watch(
      t,
      '/api/v1/nodes?watch=1&fieldSelector=metadata.name%3Dnuc1&resourceVersion=0',
      (e) => got.push(e.type),
    );
    await until(() => got.length === 1);
    t.sim?.control.setNodeReady('nuc1', 'True');
    t.sim?.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': null });
    await until(() => got.length === 3);
    w.stop();
    expect(got).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
    expect(pick(w.events[2], 'object', 'metadata', 'labels', 'nvidia.com/gpu.count')).toBeUndefined();
  });

  it('compact() makes older resourceVersions 410 Expired', async () => {
    const rv = pick((await call(t, '/api/v1/nodes')).json, 'metadata', 'resourceVersion') as string;
    t.sim?.control.setNodeLabels('cpu1', { x: '1' });
    t.sim?.control.compact();
    const w = await watchUntilEnd(t, `/api/v1/nodes?watch=1&resourceVersion=${rv}`);
    expect(w.events[0]?.type).toBe('ERROR');
    expect(pick(w.events[0], 'object', 'code')).toBe(410);
  });

  it('failNext answers the next requests with a real Status body', async () => {
    t.sim?.control.failNext(2, 503);
    expect((await call(t, '/api/v1/nodes')).json).toMatchObject({ kind: 'Status', code: 503 });
    expect((await call(t, '/api/v1/nodes')).status).toBe(503);
    expect((await call(t, '/api/v1/nodes')).status).toBe(200);
  });

  it('restart() ends open watches and keeps data and port', async () => {
    const w = watchUntilEnd(t, '/api/v1/nodes?watch=1&resourceVersion=0');
    await new Promise((r) => setTimeout(r, 100));
    await t.sim?.control.restart();
    await w.catch(() => undefined);
    expect((await call(t, '/api/v1/nodes')).json.items).toHaveLength(8);
  });

  it('revokeToken makes that token 401', async () => {
    const token = t.sim?.tokens.revocable as string;
    expect((await call(t, '/api/v1/nodes', { token })).status).toBe(200);
    t.sim?.control.revokeToken('revocable');
    expect((await call(t, '/api/v1/nodes', { token })).status).toBe(401);
  });

  it('the HTTP control endpoint is admin-only', async () => {
    const ro = await call(t, '/sim/control/listNodeNames', {
      method: 'POST',
      token: t.readonlyToken,
      body: [],
    });
    expect(ro.status).toBe(403);
    const ok = await call(t, '/sim/control/setNodeReady', { method: 'POST', body: ['omen', 'True'] });
    expect(ok.status).toBe(200);
    const names = await call(t, '/sim/control/listNodeNames', { method: 'POST', body: [] });
    expect(names.json.result).toHaveLength(8);
    expect(t.sim?.control.requestLog().some((e) => e.path.startsWith('/api/v1/nodes'))).toBe(true);
  });
});
