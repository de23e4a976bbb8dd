/**
 * Fault matrix, eager paging (list-pages.ts with eagerNext, as `gpu-fleet scan` lists): a server whose
 * page head names another continue token than the whole page does (a second "metadata" key after the
 * items, which JSON.parse takes). The request sent early with the head's token is dropped: it is
 * cancelled, and not one of its items is kept. A list cancelled between pages cancels it too.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { NODES } from '../../main/fleet/node-watch.ts';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { listObjects } from '../../main/kube/list-pages.ts';
import { largeNodes } from '../../sim/scenarios/large.ts';
import { startBrokenApi } from './broken-api.ts';
import { caData, contextFor, tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

/** Ten large nodes (well over the 8 KiB head) named `prefix-0` … `prefix-9`. */
const nodes = (prefix: string) =>
  largeNodes(10).map((n, i) => ({ ...n, metadata: { ...n.metadata, name: `${prefix}-${i}` } }));

const answer = (res: http.ServerResponse, body: string): void => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

describe('eager paging: a head that names another token than its page', () => {
  it.each([
    ['a second metadata after the items names another token', '"real"', false],
    ['a second metadata after the items names no next page', null, false],
    // Not hostile: the head tells the truth, and the list is cancelled after its first page.
    ['the list is cancelled after the first page', '"decoy"', true],
  ])('%s: the early request is cancelled and its items never kept', async (_what, realToken, cancel) => {
    const items = (prefix: string) => JSON.stringify(nodes(prefix)).slice(1, -1);
    const head = '{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"decoy"}';
    const tail = `"metadata":{"resourceVersion":"7"${realToken ? `,"continue":${realToken}` : ''}}}`;
    let decoyClosed: Promise<void> | null = null;
    // The first page stops after its head until the request its head invited has arrived.
    let finishFirst: (() => void) | null = null;
    const api = await startBrokenApi({
      list: (res, req) => {
        const url = req.url ?? '';
        if (url.includes('continue=decoy')) {
          // Never answered in full: only the client's cancel ends it.
          decoyClosed = new Promise((resolve) => req.on('close', () => resolve()));
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write(
            `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[${items('decoy')}`,
          );
          finishFirst?.();
        } else if (url.includes('continue=real')) {
          answer(
            res,
            `{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[${items('real2')}]}`,
          );
        } else {
          const body = `${head},"items":[${items('real1')}],${tail}`;
          res.writeHead(200, {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          });
          const cut = body.length / 2;
          res.write(body.slice(0, cut));
          finishFirst = () => res.end(body.slice(cut));
        }
      },
    });
    const dir = tempDir();
    const client = new ContextClient(
      contextFor(dir, { server: api.url, 'certificate-authority-data': caData(api.caPem) }, { token: 't' }),
    );
    cleanup(
      () => api.close(),
      () => fs.rmSync(dir, { recursive: true, force: true }),
      () => client.close(),
    );
    const r = await listObjects(client, NODES, {
      pageSize: 10,
      requestTimeoutMs: 60_000,
      clock: systemClock,
      isCancelled: () => cancel,
      eagerNext: true,
    });
    if (cancel) expect(r).toBeNull();
    else
      expect(r?.items.map((n) => n.name)).toEqual([
        ...nodes('real1').map((n) => n.metadata.name),
        ...(realToken ? nodes('real2').map((n) => n.metadata.name) : []),
      ]);
    // The head's token was tried early (the eager path ran) and then cancelled, before close().
    expect(api.requests.filter((p) => p.includes('continue=decoy'))).toHaveLength(1);
    expect(decoyClosed).not.toBeNull();
    await decoyClosed;
  });
});
