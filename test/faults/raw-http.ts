/**
 * Raw HTTP exchanges for the hostile-input tests: bytes exactly as written (bad request lines, huge
 * headers, pipelining) over node:net or node:tls, and the whole answer until the server closes.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface RawTarget {
  port: number;
  /** Connect with TLS (the simulator); the tests trust any certificate of their own loopback server. */
  tls?: boolean;
}

/** Sends `bytes`, then reads until the server closes the connection; resolves with what it answered. */
export function rawExchange(target: RawTarget, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = target.tls
      ? tls.connect({ host: '127.0.0.1', port: target.port, rejectUnauthorized: false })
      : net.connect({ host: '127.0.0.1', port: target.port });
    const chunks: Buffer[] = [];
    socket.once(target.tls ? 'secureConnect' : 'connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // A reset after the answer arrived still shows what the server said.
      if (chunks.length > 0 && e.code === 'ECONNRESET') resolve(Buffer.concat(chunks).toString('latin1'));
      else reject(e);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/** The status code of the first response in a raw answer, or null if there is none. */
export function statusOf(answer: string): number | null {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
  return m ? Number(m[1]) : null;
}

/** Every status code in a raw answer (pipelined responses). */
export function statusesOf(answer: string): number[] {
  return [...answer.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
}

/** Connects and never reads: the server's writes pile up in its socket buffer. */
export function stalledClient(port: number, bytes: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.write(bytes);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}
