// The list+watch loop (list-watcher.ts) honours the WatchedResource it is handed: over Namespaces (not
// Nodes) it lists and watches the namespaces' path, keeps only what that resource's trim keeps, keys the
// cache by its nameOf, and counts what its trim refuses. Against the simulator over real HTTPS.
import { afterEach, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { WatcherRecorder } from '../../test/helpers/watcher-recorder.ts';
import { ContextClient } from './context-client.ts';
import { type ListWatcher, watchContext } from './list-watcher.ts';
import type { WatchedResource } from './watched-resource.ts';

interface NamespaceName {
  name: string;
  phase: string;
}

/** Keeps a namespace's name and phase; refuses the kube-* namespaces (as a node trim refuses bad names). */
const NAMESPACES: WatchedResource<NamespaceName> = {
  path: '/api/v1/namespaces',
  singular: 'namespace',
  plural: 'namespaces',
  trim: (raw) => {
    const o = raw as { metadata?: { name?: unknown }; status?: { phase?: unknown } } | null;
    const name = o?.metadata?.name;
    if (typeof name !== 'string' || name.startsWith('kube-')) return null;
    return { name, phase: typeof o?.status?.phase === 'string' ? o.status.phase : '' };
  },
  nameOf: (ns) => ns.name,
  same: (a, b) => a.name === b.name && a.phase === b.phase,
};

let open: { s: SimContext; w: ListWatcher<NamespaceName> }[] = [];
afterEach(async () => {
  for (const { s, w } of open) {
    w.stop();
    await s.cleanup();
  }
  open = [];
});

describe('ListWatcher over a resource that is not a node', () => {
  it('lists and watches the resource path, caches what its trim keeps, and counts what it refuses', async () => {
    const s = await startSimContext({ scenario: 'homelab' });
    const rec = new WatcherRecorder(NAMESPACES);
    const w = watchContext(NAMESPACES, s.context(), rec.on, { backoff: { initialMs: 20, maxMs: 200 } });
    open.push({ s, w });
    w.start();
    await rec.waitForPhase('live');
    expect(rec.cache.view.get('default')).toEqual({ name: 'default', phase: 'Active' });
    expect(rec.cache.view.has('kube-system')).toBe(false);
    // kube-node-lease, kube-public, kube-system: refused, and said so.
    expect(rec.events.filter((e) => e.type === 'refused').at(-1)).toEqual({ type: 'refused', count: 3 });

    const client = new ContextClient(s.context());
    const made = await client.request('POST', '/api/v1/namespaces', {
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }),
      headers: { 'Content-Type': 'application/json' },
    });
    client.close();
    expect(made.status).toBe(201);
    await rec.waitFor(() => rec.cache.view.has('team-a'), 'the new namespace through the watch');
    expect(rec.events.some((e) => e.type === 'upsert' && e.object.name === 'team-a')).toBe(true);

    const paths = s.sim.control.requestLog().map((r) => r.path);
    expect(paths.some((p) => p.startsWith('/api/v1/namespaces?limit='))).toBe(true);
    expect(paths.filter((p) => p.startsWith('/api/v1/nodes'))).toEqual([]);
  });
});
