/**
 * A network link to the simulator that a test can cut: a loopback TCP forwarder (TLS passes through
 * untouched, the client still verifies the sim's certificate). `cut()` drops every open connection
 * and black-holes new ones (accepted, never answered), as a partition does: requests hang until the
 * client's own timeout. It injects a fault in the network, it does not stand in for our client.
 */
import net from 'node:net';
import type { ResolvedContext } from '../../main/kube/kubeconfig-types.ts';

export interface Link {
  url: string;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startLink(target: string): Promise<Link> {
  const to = new URL(target);
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (cut) return; // black hole: the TLS handshake never completes
    const upstream = net.connect(Number(to.port), to.hostname);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    heal() {
      cut = false;
      // Black-holed connections are dropped so the client's retries open fresh ones.
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The same context (credentials, CA) reaching the API server through `url`. */
export function throughLink(ctx: ResolvedContext, url: string): ResolvedContext {
  if (!ctx.cluster) throw new Error('context without a cluster');
  return { ...ctx, cluster: { ...ctx.cluster, cluster: { ...ctx.cluster.cluster, server: url } } };
}
