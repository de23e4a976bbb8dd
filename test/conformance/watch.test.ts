// Conformance: watch wire format, replay from a resourceVersion, selector enter/leave, 410, timeout, bookmarks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from './client.ts';
import { call, connect, pick, uniq, until, watch, watchUntilEnd } from './client.ts';

let t: Target;
const run = uniq('confw');
const a = `${run}-a`;
const mp = 'application/merge-patch+json';

beforeAll(async () => {
  t = await connect();
  await call(t, '/api/v1/nodes', {
    method: 'POST',
    body: { metadata: { name: a, labels: { 'conformance-run': run } } },
  });
});

afterAll(async () => {
  await call(t, `/api/v1/nodes/${a}`, { method: 'DELETE' });
  await call(t, `/api/v1/nodes/${run}-b`, { method: 'DELETE' });
  await t.sim?.close();
});

describe('watch', () => {
  it('replays ADDED/MODIFIED/DELETED from a resourceVersion; no event for a no-op', async () => {
    const list = await call(t, `/api/v1/nodes?labelSelector=conformance-run%3D${run}`);
    const rv = pick(list.json, 'metadata', 'resourceVersion') as string;
    const b = `${run}-b`;
    await call(t, '/api/v1/nodes', {
      method: 'POST',
      body: { metadata: { name: b, labels: { 'conformance-run': run } } },
    });
    await call(t, `/api/v1/nodes/${b}`, {
      method: 'PATCH',
      contentType: mp,
      body: { metadata: { labels: { team: 'ml' } } },
    });
    const noop = await call(t, `/api/v1/nodes/${b}`, {
      method: 'PATCH',
      contentType: mp,
      body: { metadata: { labels: { team: 'ml' } } },
    });
    const del = await call(t, `/api/v1/nodes/${b}`, { method: 'DELETE' });
    expect(del.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: b, kind: 'nodes' },
    });
    const w = await watchUntilEnd(
      t,
      `/api/v1/nodes?watch=1&resourceVersion=${rv}&labelSelector=conformance-run%3D${run}&timeoutSeconds=1`,
    );
    expect(w.status).toBe(200);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(pick(w.events[0], 'object', 'kind')).toBe('Node');
    const deletedRv = Number(pick(w.events[2], 'object', 'metadata', 'resourceVersion'));
    expect(deletedRv).toBeGreaterThan(Number(pick(noop.json, 'metadata', 'resourceVersion')));
  });

  it('selector enter is ADDED and leave is DELETED with the previous state', async () => {
    const got: string[] = [];
    const w = await watch(
      t,
      `/api/v1/nodes?watch=1&labelSelector=gpu%3Dtrue&fieldSelector=metadata.name%3D${a}&timeoutSeconds=10`,
      (e) => got.push(e.type),
    );
    await call(t, `/api/v1/nodes/${a}`, {
      method: 'PATCH',
      contentType: mp,
      body: { metadata: { labels: { gpu: 'true' } } },
    });
    await until(() => got.length >= 1);
    const leave = await call(t, `/api/v1/nodes/${a}`, {
      method: 'PATCH',
      contentType: mp,
      body: { metadata: { labels: { gpu: 'false' } } },
    });
    await until(() => got.length >= 2);
    w.stop();
    expect(got).toEqual(['ADDED', 'DELETED']);
    const del = w.events[1];
    expect(pick(del, 'object', 'metadata', 'labels', 'gpu')).toBe('true');
    expect(pick(del, 'object', 'metadata', 'resourceVersion')).toBe(
      pick(leave.json, 'metadata', 'resourceVersion'),
    );
  });

  it('a compacted resourceVersion gives HTTP 200 and one ERROR 410 Expired event', async () => {
    const w = await watchUntilEnd(t, '/api/v1/nodes?watch=1&resourceVersion=1&timeoutSeconds=5');
    expect(w.status).toBe(200);
    expect(w.events).toHaveLength(1);
    expect(w.events[0]?.type).toBe('ERROR');
    expect(w.events[0]?.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(String(pick(w.events[0], 'object', 'message'))).toMatch(/^too old resource version: 1 \(\d+\)$/);
  });

  it('without resourceVersion starts with synthetic ADDED events and ends at timeoutSeconds', async () => {
    const w = await watchUntilEnd(
      t,
      `/api/v1/nodes?watch=1&fieldSelector=metadata.name%3D${a}&timeoutSeconds=1`,
    );
    expect(w.events.map((e) => e.type)).toEqual(['ADDED']);
  });

  it('sends a BOOKMARK shortly before the timeout with allowWatchBookmarks', async () => {
    const list = await call(t, `/api/v1/nodes?fieldSelector=metadata.name%3D${a}`);
    const rv = pick(list.json, 'metadata', 'resourceVersion') as string;
    const w = await watchUntilEnd(
      t,
      `/api/v1/nodes?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${a}&allowWatchBookmarks=true&timeoutSeconds=3`,
    );
    const bm = w.events.filter((e) => e.type === 'BOOKMARK');
    expect(bm.length).toBeGreaterThan(0);
    expect(pick(bm[0], 'object', 'kind')).toBe('Node');
    expect(Number(pick(bm[0], 'object', 'metadata', 'resourceVersion'))).toBeGreaterThanOrEqual(Number(rv));
  });

  it('refuses sendInitialEvents (WatchList off) with 422', async () => {
    const r = await call(t, '/api/v1/nodes?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1');
    expect(r.status).toBe(422);
  });
});
