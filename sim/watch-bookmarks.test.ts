/**
 * The simulator's bookmark timing follows the apiserver's cacher (cacheWatcher.nextBookmarkTime): with the
 * real one-minute frequency, the only bookmark of a short watch is the one due 2 s before its deadline, it
 * comes only when something changed after the watch started, and a watch of 2 s or less gets none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ContextClient } from '../main/kube/context-client.ts';
import { type SimContext, startSimContext } from '../test/helpers/sim-context.ts';

let s: SimContext | null = null;
let client: ContextClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await s?.cleanup();
  s = null;
});

/** Watches nodes until the server ends the stream; calls `opened` once the 200 is in. */
async function typesUntilEnd(query: string, opened: () => void): Promise<string[]> {
  s ??= await startSimContext({ scenario: 'homelab' });
  const c = new ContextClient(s.context());
  client = c;
  const list = (await c.getJson('/api/v1/nodes?limit=1', 'listing nodes')) as {
    metadata: { resourceVersion: string };
  };
  const rv = list.metadata.resourceVersion;
  const types: string[] = [];
  return new Promise((resolve, reject) => {
    c.stream(
      `/api/v1/nodes?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&${query}`,
      {
        onLine: (l) => types.push(String((JSON.parse(l) as { type?: unknown }).type)),
        onEnd: () => resolve(types),
      },
      'watching nodes',
    ).then(opened, reject);
  });
}

describe('sim bookmarks (cacher rule, one-minute frequency)', () => {
  it('a 4 s watch during which a node changed gets one bookmark, before its timeout', async () => {
    const types = await typesUntilEnd('timeoutSeconds=4', () =>
      s?.sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': '3' }),
    );
    expect(types).toEqual(['MODIFIED', 'BOOKMARK']);
  });

  it('a quiet 3 s watch gets none', async () => {
    expect(await typesUntilEnd('timeoutSeconds=3', () => {})).toEqual([]);
  });

  it('a watch of 2 s or less gets none, even after a change', async () => {
    const types = await typesUntilEnd('timeoutSeconds=2', () =>
      s?.sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': '5' }),
    );
    expect(types).toEqual(['MODIFIED']);
  });
});
