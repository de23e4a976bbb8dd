// Conformance: watch wire format, replay from a resourceVersion, selector enter/leave, 410, timeout, bookmarks
// (when the apiserver's cacher sends them).
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

  // The apiserver's cacher (cacheWatcher.nextBookmarkTime / process) sends a bookmark at
  // min(now + ~1 min, deadline − 2 s), and only when its resourceVersion is newer than what the watch
  // started from. So a short watch with nothing new gets none (a real v1.33 sent none for timeoutSeconds=3),
  // and one during which something changed gets one before its timeout.
  it('sends a BOOKMARK before the timeout once something changed after the watch started', async () => {
    const list = await call(t, `/api/v1/nodes?fieldSelector=metadata.name%3D${a}`);
    const rv = pick(list.json, 'metadata', 'resourceVersion') as string;
    const got: string[] = [];
    const w = await watch(
      t,
      `/api/v1/nodes?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${a}&allowWatchBookmarks=true&timeoutSeconds=5`,
      (e) => got.push(e.type),
    );
    const patched = await call(t, `/api/v1/nodes/${a}`, {
      method: 'PATCH',
      contentType: mp,
      body: { metadata: { labels: { bookmark: run } } },
    });
    await until(() => got.includes('BOOKMARK'), 8000);
    w.stop();
    expect(got.slice(0, 2)).toEqual(['MODIFIED', 'BOOKMARK']);
    const bm = w.events[1];
    expect(pick(bm, 'object', 'kind')).toBe('Node');
    expect(Number(pick(bm, 'object', 'metadata', 'resourceVersion'))).toBeGreaterThanOrEqual(
      Number(pick(patched.json, 'metadata', 'resourceVersion')),
    );
  });

  it('a quiet short watch gets no BOOKMARK that is not newer than its start', async () => {
    const list = await call(t, `/api/v1/nodes?fieldSelector=metadata.name%3D${a}`);
    const rv = Number(pick(list.json, 'metadata', 'resourceVersion'));
    const w = await watchUntilEnd(
      t,
      `/api/v1/nodes?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${a}&allowWatchBookmarks=true&timeoutSeconds=3`,
    );
    expect(w.status).toBe(200);
    // A busy real cluster may move on meanwhile (another node, a progress notification): then a bookmark
    // may come, but never one that is not newer than where the watch started.
    for (const e of w.events) {
      expect(e.type).toBe('BOOKMARK');
      expect(Number(pick(e, 'object', 'metadata', 'resourceVersion'))).toBeGreaterThan(rv);
    }
  });

  it('refuses sendInitialEvents (WatchList off) with 422', async () => {
    const r = await call(t, '/api/v1/nodes?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1');
    expect(r.status).toBe(422);
  });
});
