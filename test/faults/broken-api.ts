/**
 * A fault injector, not a mock of our client: a raw HTTPS server on 127.0.0.1 that answers the node LIST
 * and WATCH the way a broken API server, proxy or flaky link does (truncated or malformed JSON, HTML, cut
 * connections, garbage objects). Everything else answers 404.
 */
import type http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { largeNodes } from '../../sim/scenarios/large.ts';
import { makeTls } from '../../sim/tls.ts';

export type Answer = (res: http.ServerResponse, req: http.IncomingMessage) => void;

export interface BrokenApi {
  url: string;
  caPem: string;
  /** Paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

/** A valid NodeList of `large:20` (GPU nodes Ready, a CPU node or two), resourceVersion 100. */
export function nodeList(): string {
  const items = largeNodes(20).map((n, i) => ({
    ...n,
    metadata: { ...n.metadata, resourceVersion: String(50 + i) },
  }));
  return JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '100' }, items });
}

export const sendJson =
  (body: string, status = 200): Answer =>
  (res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };

/** A watch that sends these lines and then stays open (or ends, when `end`). */
export const watchLines =
  (lines: string[], end = false): Answer =>
  (res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    for (const l of lines) res.write(l);
    if (end) res.end();
  };

/** Promises a body it never finishes: half of it, then the connection is cut. */
export const cutOff =
  (body: string): Answer =>
  (res, req) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.write(body.slice(0, Math.floor(body.length / 2)));
    setTimeout(() => req.socket.destroy(), 20);
  };

/** `kubeSystem`: how GET /api/v1/namespaces/kube-system is answered (404 when absent). */
export async function startBrokenApi(answers: {
  list: Answer;
  watch?: Answer;
  kubeSystem?: Answer;
}): Promise<BrokenApi> {
  const tls = await makeTls();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    if (url.startsWith('/api/v1/nodes?') && url.includes('watch='))
      (answers.watch ?? watchLines([]))(res, req);
    else if (url.startsWith('/api/v1/nodes')) answers.list(res, req);
    else if (url === '/api/v1/namespaces/kube-system' && answers.kubeSystem) answers.kubeSystem(res, req);
    else sendJson(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound' }), 404)(res, req);
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}`,
    caPem: tls.caPem,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
