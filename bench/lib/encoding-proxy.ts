/**
 * Row 6's gzip switch: a loopback HTTPS proxy in front of a simulator that either passes the client's
 * Accept-Encoding through (gzip on: the sim compresses responses over 128 KiB) or drops it (gzip off:
 * every byte crosses the wire as JSON). Both modes go through the same proxy, so they differ only in
 * the encoding; it counts the bytes it sent to the client.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { kubeconfigYaml } from '../../sim/kubeconfig.ts';
import { makeTls } from '../../sim/tls.ts';
import type { HostedSim } from './sim-host.ts';

export interface EncodingProxy {
  kubeconfigPath: string;
  /** Bytes of response bodies sent to clients so far (compressed when gzip is on). */
  bytesOut(): number;
  close(): Promise<void>;
}

export async function startEncodingProxy(
  sim: HostedSim,
  opts: { gzip: boolean; dir: string },
): Promise<EncodingProxy> {
  const tls = await makeTls();
  const upstream = new URL(sim.url);
  const agent = new https.Agent({ keepAlive: true, ca: sim.caPem });
  let bytes = 0;
  const server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    if (!opts.gzip) delete headers['accept-encoding'];
    const up = https.request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.on('data', (d: Buffer) => {
          bytes += d.length;
        });
        r.pipe(res);
      },
    );
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`bench proxy: ${e.message}\n`);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const token = sim.adminToken;
  const kubeconfigPath = path.join(opts.dir, `proxy-${opts.gzip ? 'gzip' : 'identity'}-${port}.yaml`);
  fs.writeFileSync(
    kubeconfigPath,
    kubeconfigYaml(`https://127.0.0.1:${port}`, tls.caPem, {
      admin: token,
      readonly: token,
      revocable: token,
    }),
    { mode: 0o600 },
  );
  return {
    kubeconfigPath,
    bytesOut: () => bytes,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
