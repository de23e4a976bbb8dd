/**
 * The kube-system namespace as hostile input (the second same-cluster key, main/fleet/cluster-uids.ts):
 * two API servers at two addresses answer it with garbage, a forged uid, a huge body, a cut connection or
 * an error. None of it reaches a card: the two contexts stay two cards, each live without a message. Only
 * a plausible uid both servers claim joins them (what the key means; docs/connection.md says so).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';
import { type Answer, cutOff, nodeList, sendJson, startBrokenApi, watchLines } from './broken-api.ts';
import { startRun } from './harness.ts';
import { caData, loadContext, tempDir, writeKubeconfig } from './kubeconfig.ts';

const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

const ns = (uid: unknown) => JSON.stringify({ kind: 'Namespace', metadata: { name: 'kube-system', uid } });
const UID = '3f1c2a9e-8b7d-4c1e-9a2b-0d5e6f7a8b9c';

async function twoServers(kubeSystem: Answer): Promise<ResolvedContext[]> {
  const dir = tempDir();
  const contexts: ResolvedContext[] = [];
  for (const name of ['a', 'b']) {
    const api = await startBrokenApi({ list: sendJson(nodeList()), watch: watchLines([]), kubeSystem });
    stops.push(() => api.close());
    const file = `${dir}/${name}.yaml`;
    writeKubeconfig(
      file,
      { server: api.url, 'certificate-authority-data': caData(api.caPem) },
      { token: 't' },
    );
    contexts.push({ ...loadContext(file), name });
  }
  return contexts;
}

describe('a hostile kube-system namespace', () => {
  it.each<[string, Answer]>([
    ['a uid with a control character', sendJson(ns(`${UID}\u001b[2J`))],
    ['a uid that is a number', sendJson(ns(42))],
    ['a 2 MB uid', sendJson(ns('a'.repeat(2_000_000)))],
    ['HTML', sendJson('<html>proxy login</html>')],
    ['a cut connection', cutOff(ns(UID))],
    ['a 403', sendJson(JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden' }), 403)],
    ['a 500', sendJson('oops', 500)],
  ])('%s: two cards, each live with no message', async (_what, answer) => {
    // Each context's read ends in one debug line (read, refused or failed): then its answer has counted.
    const unread = new Set<string>();
    const run = startRun(await twoServers(answer), {
      debug: (context, line) => line.startsWith('kube-system uid not read') && unread.add(context),
    });
    stops.push(() => run.stop());
    await run.waitFor(
      () =>
        unread.size === 2 &&
        run.engine.snapshot().contexts.every((c) => c.connection.phase === 'live' && c.inventory !== null),
      'both reads over and both live',
    );
    const cards = run.engine.snapshot().contexts;
    expect(cards.map((c) => [c.context, c.sameCluster, c.connection.message])).toEqual([
      ['a', undefined, null],
      ['b', undefined, null],
    ]);
  });

  it('a plausible uid both claim joins them (one card naming both)', async () => {
    const run = startRun(await twoServers(sendJson(ns(UID))));
    stops.push(() => run.stop());
    await run.waitFor(() => run.engine.snapshot().contexts.length === 1, 'one card');
    expect(run.engine.snapshot().contexts.map((c) => [c.context, c.sameCluster])).toEqual([['a', ['b']]]);
  });
});
