/**
 * A webhook receiver over real HTTP on 127.0.0.1 for the forwarding tests: it keeps every request
 * (headers and exact body bytes) and answers from a script, one scripted answer per request, then its
 * default: Slack's incoming webhooks answer 200 "ok", Discord's 204 with no body, a generic one 200.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class WebhookFake {
  readonly received: Received[] = [];
  readonly script: ScriptedAnswer[] = [];
  url = '';
  readonly #server: http.Server;

  private constructor(readonly fallback: ScriptedAnswer) {
    this.#server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        const answer = this.script.shift() ?? this.fallback;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      });
    });
  }

  static async start(fallback: ScriptedAnswer = { status: 200, body: 'ok' }): Promise<WebhookFake> {
    const fake = new WebhookFake(fallback);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
