// Request context and response writing: compact/pretty JSON, YAML, gzip above 128 KiB, text 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import { stringify as toYaml } from 'yaml';
import { ApiError, statusBody } from './errors.ts';
import type { JsonObject, User } from './types.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  user: User;
  bodyBytes?: Buffer;
}

const GZIP_MIN = 128 * 1024;

/**
 * The request body, read up to `limit` bytes (the apiserver's 3 MiB): one byte more and it answers 413
 * without decoding anything (shared/real-api/13 steps 5-6).
 */
export async function readBody(ctx: Ctx, limit = 3_145_728): Promise<Buffer> {
  if (ctx.bodyBytes) return ctx.bodyBytes;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > limit) {
      ctx.res.setHeader('Connection', 'close');
      throw new ApiError(
        413,
        statusBody(413, `Request entity too large: limit is ${limit}`, 'RequestEntityTooLarge'),
      );
    }
    chunks.push(c as Buffer);
  }
  ctx.bodyBytes = Buffer.concat(chunks);
  return ctx.bodyBytes;
}

function wantsPretty(ctx: Ctx): boolean {
  const p = ctx.query.get('pretty');
  if (p !== null) return p === 'true' || p === '1';
  const ua = ctx.req.headers['user-agent'] ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget');
}

function wantsYaml(ctx: Ctx): boolean {
  const accept = ctx.req.headers.accept ?? '';
  return /^application\/yaml\b/.test(accept.trim());
}

/** Sends a JSON body given as an object or as already-encoded compact JSON. */
export function sendJson(
  ctx: Ctx,
  code: number,
  body: JsonObject | string,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  let text: string;
  let type = contentType;
  if (wantsYaml(ctx)) {
    text = toYaml(typeof body === 'string' ? JSON.parse(body) : body);
    type = 'application/yaml';
  } else if (wantsPretty(ctx)) {
    text = JSON.stringify(typeof body === 'string' ? JSON.parse(body) : body, null, 2);
  } else {
    text = `${typeof body === 'string' ? body : JSON.stringify(body)}\n`;
  }
  const h: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'no-cache, private',
    ...headers,
  };
  sendBytes(ctx, code, Buffer.from(text), h);
}

export function sendBytes(ctx: Ctx, code: number, buf: Buffer, headers: Record<string, string>): void {
  const enc = String(ctx.req.headers['accept-encoding'] ?? '');
  if (buf.length > GZIP_MIN && /\bgzip\b/.test(enc)) {
    gzip(buf, { level: 1 }, (err, zipped) => {
      if (err) {
        ctx.res.writeHead(code, headers).end(buf);
        return;
      }
      ctx.res.writeHead(code, {
        ...headers,
        'Content-Encoding': 'gzip',
        'Content-Length': String(zipped.length),
      });
      ctx.res.end(zipped);
    });
    return;
  }
  ctx.res.writeHead(code, { ...headers, 'Content-Length': String(buf.length) });
  ctx.res.end(buf);
}

export function sendText404(ctx: Ctx): void {
  sendBytes(ctx, 404, Buffer.from('404 page not found\n'), {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-cache, private',
    'X-Content-Type-Options': 'nosniff',
  });
}

export interface Negotiated {
  table?: 'v1' | 'v1beta1';
  aggregated: boolean;
  acceptable: boolean;
}

/** Picks the first acceptable media type of the Accept header. */
export function negotiate(accept: string | undefined, discovery: boolean): Negotiated {
  if (!accept) return { aggregated: false, acceptable: true };
  for (const raw of accept.split(',')) {
    const [type = '', ...params] = raw.split(';').map((s) => s.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=') as [string, string]));
    if (type === 'application/json' && p.as === 'Table' && p.g === 'meta.k8s.io') {
      if (p.v === 'v1' || p.v === 'v1beta1') return { table: p.v, aggregated: false, acceptable: true };
      continue;
    }
    if (type === 'application/json' && p.as === 'APIGroupDiscoveryList') {
      if (discovery && p.v === 'v2' && p.g === 'apidiscovery.k8s.io')
        return { aggregated: true, acceptable: true };
      continue;
    }
    if (['application/json', 'application/yaml', '*/*', 'application/*'].includes(type)) {
      return { aggregated: false, acceptable: true };
    }
  }
  return { aggregated: false, acceptable: false };
}
