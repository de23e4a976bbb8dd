/**
 * A fake ntfy 2.11 server over real HTTP on 127.0.0.1, as strict as the real one recorded in
 * ../shared/ntfy: deny-all access with users, tokens and topic ACLs; publish by JSON to "/", by text
 * with header aliases, RFC 2047 and query parameters, and by GET …/publish; polling with since, tags
 * and priority filters; the exact error bodies; the 4096-byte and 8192-byte limits; the request bucket
 * (60, +1 per 5 s) and the auth-failure bucket (30, +1 per minute) on the injected clock. `stop()`
 * closes the port, so later requests are refused as a stopped server's are.
 *
 * Beyond the transcripts, a test may queue a fault: `drop-answer` stores the message and then cuts the
 * connection without answering (the lost answer of a publish that worked).
 */
import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Action,
  actionError,
  Bucket,
  ERRORS,
  headerPriority,
  headerText,
  isUtf8,
  JSON_BYTES_LIMIT,
  MESSAGE_BYTES_LIMIT,
  type NtfyError,
  ordered,
  RESERVED_TOPICS,
  type StoredMessage,
  sinceFilter,
  TOPIC,
} from './ntfy-fake-rules.ts';

export interface NtfyUser {
  name: string;
  password: string;
  token: string;
  /** The topics the user may read and write: a name, or a prefix ending in "*" ("gpu-*"). */
  topics: string;
}

export interface NtfyFakeOptions {
  now: () => number;
  users: NtfyUser[];
  /** A port to listen on (a restarted server on its old port); 0 or absent: any free one. */
  port?: number;
}

export type NtfyFault = { type: 'drop-answer' };

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number | null;
}

const BODY_READ_MAX = 1024 * 1024;
const HTML = '<html><body> ntfy web root: no web app is running in the debian version </body></html>\n';
const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomId = (n: number) =>
  Array.from({ length: n }, () => ALPHANUM[randomInt(ALPHANUM.length)]).join('');

class Refusal extends Error {
  constructor(readonly body: NtfyError) {
    super(body.error);
  }
}

export class NtfyFake {
  readonly #server: http.Server;
  readonly #opts: NtfyFakeOptions;
  readonly #messages: StoredMessage[] = [];
  readonly #requests: Bucket;
  readonly #authFailures: Bucket;
  readonly faults: NtfyFault[] = [];
  readonly seen: SeenRequest[] = [];
  url = '';

  private constructor(opts: NtfyFakeOptions) {
    this.#opts = opts;
    this.#requests = new Bucket(60, 5_000, opts.now());
    this.#authFailures = new Bucket(30, 60_000, opts.now());
    this.#server = http.createServer((req, res) => this.#handle(req, res));
  }

  static async start(opts: NtfyFakeOptions): Promise<NtfyFake> {
    const fake = new NtfyFake(opts);
    await new Promise<void>((resolve) => fake.#server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Messages stored, oldest first (of one topic, or all). */
  messages(topic?: string): StoredMessage[] {
    return this.#messages.filter((m) => topic === undefined || m.topic === topic);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_READ_MAX) chunks.push(c);
    });
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: null,
      };
      this.seen.push(seen);
      try {
        this.#route(req, res, Buffer.concat(chunks), seen);
      } catch (error) {
        const body = error instanceof Refusal ? error.body : ERRORS.notFound;
        seen.status = body.http;
        this.#json(res, body.http, JSON.stringify(body));
      }
    });
  }

  #route(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, seen: SeenRequest): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? '';
    const parts = url.pathname.split('/').slice(1);
    const user = this.#authenticate(req);
    const [first = '', second, third] = parts;
    if (method === 'GET' && parts.length === 1 && (first === '' || TOPIC.test(first))) {
      seen.status = 200;
      res.writeHead(200, { 'accept-ranges': 'bytes', 'content-type': 'text/html; charset=utf-8' });
      res.end(HTML);
      return;
    }
    if ((method === 'POST' || method === 'PUT') && parts.length === 1 && first === '') {
      this.#limit();
      this.#store(res, seen, this.#fromJson(body, user));
      return;
    }
    if ((method === 'POST' || method === 'PUT') && parts.length === 1 && TOPIC.test(first)) {
      if (RESERVED_TOPICS.has(first)) throw new Refusal(ERRORS.topicNotAllowed);
      this.#limit();
      this.#allow(user, first);
      this.#store(res, seen, this.#fromText(first, body, req, url));
      return;
    }
    if (
      method === 'GET' &&
      parts.length === 2 &&
      TOPIC.test(first) &&
      ['publish', 'send', 'trigger'].includes(second ?? '')
    ) {
      this.#limit();
      this.#allow(user, first);
      const text = url.searchParams.get('message') ?? url.searchParams.get('m') ?? '';
      this.#store(res, seen, this.#fromText(first, Buffer.from(text), req, url));
      return;
    }
    if (method === 'GET' && parts.length === 2 && second === 'json' && third === undefined) {
      const topics = first.split(',');
      if (!topics.every((t) => TOPIC.test(t))) throw new Refusal(ERRORS.notFound);
      this.#limit();
      for (const t of topics) this.#allow(user, t);
      this.#poll(res, seen, topics, url);
      return;
    }
    throw new Refusal(ERRORS.notFound);
  }

  /** 02 steps 1-6 and 32: which credentials count, and the auth-failure limiter checked first. */
  #authenticate(req: http.IncomingMessage): NtfyUser | null {
    const header = (req.headers.authorization ?? '').trim();
    const lower = header.toLowerCase();
    if (!lower.startsWith('basic ') && !lower.startsWith('bearer ')) return null;
    const now = this.#opts.now();
    if (!this.#authFailures.allowed(now)) throw new Refusal(ERRORS.tooManyAuthFailures);
    const user = header.startsWith('Bearer') ? this.#byToken(header.slice(6).trim()) : this.#byBasic(header);
    if (user) return user;
    this.#authFailures.take(now);
    throw new Refusal(ERRORS.unauthorized);
  }

  #byToken(token: string): NtfyUser | null {
    return this.#opts.users.find((u) => u.token === token) ?? null;
  }

  #byBasic(header: string): NtfyUser | null {
    if (!header.toLowerCase().startsWith('basic ')) return null;
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const name = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (name === '') return this.#byToken(password);
    return this.#opts.users.find((u) => u.name === name && u.password === password) ?? null;
  }

  #limit(): void {
    if (!this.#requests.take(this.#opts.now())) throw new Refusal(ERRORS.tooManyRequests);
  }

  #allow(user: NtfyUser | null, topic: string): void {
    const rule = user?.topics ?? null;
    const ok = rule !== null && (rule.endsWith('*') ? topic.startsWith(rule.slice(0, -1)) : topic === rule);
    if (!ok) throw new Refusal(ERRORS.forbidden);
  }

  #fromText(
    topic: string,
    body: Buffer,
    req: http.IncomingMessage,
    url: URL,
  ): Omit<StoredMessage, 'id' | 'time' | 'expires' | 'event'> {
    if (body.length >= MESSAGE_BYTES_LIMIT || !isUtf8(body)) throw new Refusal(ERRORS.attachments);
    const field = (names: string[]): string | null => {
      for (const n of names) {
        const h = req.headers[n];
        if (typeof h === 'string') return headerText(h);
        const q = url.searchParams.get(n.replace(/^x-/, ''));
        if (q !== null) return q;
      }
      return null;
    };
    const priority = headerPriority(field(['x-priority', 'priority', 'prio', 'p']));
    if (priority === 'invalid') throw new Refusal(ERRORS.priority);
    const tags = (field(['x-tags', 'tags', 'tag', 'ta']) ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    const markdown = /^(yes|true|1)$/i.test(field(['x-markdown', 'markdown', 'md']) ?? '');
    const text = body.toString('utf8');
    return {
      topic,
      ...optional('title', field(['x-title', 'title', 't'])),
      message: text === '' ? 'triggered' : text,
      ...(priority !== null ? { priority } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...optional('click', field(['x-click', 'click'])),
      ...(markdown ? { content_type: 'text/markdown' as const } : {}),
    };
  }

  /** 02 steps 15-22: the JSON publish's size, syntax, types, topic, priority and actions. */
  #fromJson(body: Buffer, user: NtfyUser | null): Omit<StoredMessage, 'id' | 'time' | 'expires' | 'event'> {
    if (body.length >= JSON_BYTES_LIMIT) throw new Refusal(ERRORS.jsonTooLarge);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new Refusal(ERRORS.json);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Refusal(ERRORS.json);
    const o = parsed as Record<string, unknown>;
    const str = (k: string) => {
      if (o[k] !== undefined && typeof o[k] !== 'string') throw new Refusal(ERRORS.json);
      return o[k] as string | undefined;
    };
    const title = str('title');
    const message = str('message');
    const click = str('click');
    const topic = str('topic');
    if (o.priority !== undefined && !Number.isInteger(o.priority)) throw new Refusal(ERRORS.json);
    if (o.markdown !== undefined && typeof o.markdown !== 'boolean') throw new Refusal(ERRORS.json);
    if (o.tags !== undefined && !(Array.isArray(o.tags) && o.tags.every((t) => typeof t === 'string')))
      throw new Refusal(ERRORS.json);
    if (o.actions !== undefined && !Array.isArray(o.actions)) throw new Refusal(ERRORS.json);
    if (topic === undefined || !TOPIC.test(topic)) throw new Refusal(ERRORS.topicInvalid);
    this.#allow(user, topic);
    const priority = o.priority as number | undefined;
    if (priority !== undefined && (priority < 0 || priority > 5)) throw new Refusal(ERRORS.priority);
    if (Buffer.byteLength(message ?? '') >= MESSAGE_BYTES_LIMIT) throw new Refusal(ERRORS.attachments);
    const actions = ((o.actions as unknown[] | undefined) ?? []).map(checkAction);
    return {
      topic,
      ...optional('title', title ?? null),
      message: message === undefined || message === '' ? 'triggered' : message,
      ...(priority ? { priority } : {}),
      ...((o.tags as string[] | undefined)?.length ? { tags: o.tags as string[] } : {}),
      ...optional('click', click ?? null),
      ...(actions.length > 0 ? { actions } : {}),
      ...(o.markdown === true ? { content_type: 'text/markdown' as const } : {}),
    };
  }

  #store(
    res: http.ServerResponse,
    seen: SeenRequest,
    fields: Omit<StoredMessage, 'id' | 'time' | 'expires' | 'event'>,
  ): void {
    const time = Math.floor(this.#opts.now() / 1000);
    const { topic, ...rest } = fields;
    const m: StoredMessage = {
      id: randomId(12),
      time,
      expires: time + 43_200,
      event: 'message',
      topic,
      ...rest,
    };
    this.#messages.push(m);
    if (this.faults[0]?.type === 'drop-answer') {
      this.faults.shift();
      res.socket?.destroy();
      return;
    }
    seen.status = 200;
    this.#json(res, 200, ordered(m));
  }

  /** 01 steps 11-16: ndjson, oldest first, exclusive `since=<id>`, filters; empty is 200 with no body. */
  #poll(res: http.ServerResponse, seen: SeenRequest, topics: string[], url: URL): void {
    if (url.searchParams.get('poll') !== '1') {
      // A live subscription starts with an "open" event; the fake never pushes more to it.
      res.writeHead(200, this.#ndjsonHeaders());
      res.write(
        `${JSON.stringify({ id: randomId(12), time: Math.floor(this.#opts.now() / 1000), event: 'open', topic: topics.join(',') })}\n`,
      );
      seen.status = 200;
      return;
    }
    const all = this.#messages.filter((m) => topics.includes(m.topic));
    const since = sinceFilter(
      url.searchParams.get('since'),
      all.map((m) => m.id),
      Math.floor(this.#opts.now() / 1000),
    );
    if (since === 'invalid') throw new Refusal(ERRORS.since);
    const priorities = (url.searchParams.get('priority') ?? '')
      .split(',')
      .filter((p) => p !== '')
      .map((p) => headerPriority(p));
    const tags = (url.searchParams.get('tags') ?? url.searchParams.get('tag') ?? '')
      .split(',')
      .filter((t) => t !== '');
    const lines = all
      .filter(since)
      .filter((m) => priorities.length === 0 || priorities.includes(m.priority ?? 3))
      .filter((m) => tags.every((t) => m.tags?.includes(t)))
      .map((m) => `${ordered(m)}\n`)
      .join('');
    seen.status = 200;
    if (lines === '') {
      res.writeHead(200, { ...this.#ndjsonHeaders(), 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(200, this.#ndjsonHeaders());
    res.end(lines);
  }

  #ndjsonHeaders() {
    return { 'access-control-allow-origin': '*', 'content-type': 'application/x-ndjson; charset=utf-8' };
  }

  /** One compact line + "\n"; over 4 KB it goes chunked, as Go's net/http sends it (02 step 11). */
  #json(res: http.ServerResponse, status: number, line: string): void {
    const body = `${line}\n`;
    const length = Buffer.byteLength(body);
    res.writeHead(status, {
      'access-control-allow-origin': '*',
      'content-type': 'application/json',
      ...(length > 4096 ? {} : { 'content-length': String(length) }),
    });
    res.end(body);
  }
}

function optional<K extends string>(key: K, value: string | null): { [P in K]?: string } {
  return value === null || value === '' ? {} : ({ [key]: value } as { [P in K]?: string });
}

function checkAction(raw: unknown): Action & { id: string; clear: false } {
  if (!raw || typeof raw !== 'object') throw new Refusal(ERRORS.json);
  const a = raw as Record<string, unknown>;
  const action = typeof a.action === 'string' ? a.action : '';
  const label = typeof a.label === 'string' ? a.label : '';
  if (!['view', 'http', 'broadcast'].includes(action))
    throw new Refusal(
      actionError(
        `parameter 'action' cannot be '${action}', valid values are 'view', 'broadcast' and 'http'`,
      ),
    );
  if (label === '') throw new Refusal(actionError(`parameter 'label' is required`));
  const url = typeof a.url === 'string' ? a.url : undefined;
  if ((action === 'view' || action === 'http') && !url)
    throw new Refusal(actionError(`parameter 'url' is required for action '${action}'`));
  return { id: randomId(10), action, label, clear: false, ...(url ? { url } : {}) };
}
