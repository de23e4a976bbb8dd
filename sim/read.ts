// GET of one object and LIST with selectors, limit/continue paging and resourceVersion semantics.
import type { Core } from './core.ts';
import { ApiError, apiError, badRequest, notFound, optionsInvalid, statusBody } from './errors.ts';
import type { Ctx } from './http.ts';
import { negotiate, sendJson } from './http.ts';
import { labelsOf, parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { itemJson, objectJson } from './serialize.ts';
import { toTable } from './table.ts';
import type { JsonObject, KObj, ResourceDef } from './types.ts';
import { apiVersionOf, presented, storeKey } from './types.ts';

export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    const ch = Buffer.from(token, 'base64url').toString('latin1')[0] ?? '';
    throw badRequest(
      `invalid continue token: continue key is not valid: invalid character '${JSON.stringify(ch).slice(1, -1)}' looking for beginning of value`,
    );
  }
  const p = parsed as { rv?: unknown; start?: unknown };
  if (typeof p.rv !== 'number' || typeof p.start !== 'string') {
    throw badRequest(
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
  return { rv: p.rv, start: p.start };
}

export function parseRv(s: string): number {
  if (!/^\d+$/.test(s)) {
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: "${s}": strconv.ParseUint: parsing "${s}": invalid syntax`,
    );
  }
  return Number(s);
}

export function matcherFor(core: Core, ctx: Ctx, def: ResourceDef, namespace: string): (o: KObj) => boolean {
  const ls = ctx.query.get('labelSelector');
  const fs = ctx.query.get('fieldSelector');
  const lm = ls ? parseLabelSelector(ls) : undefined;
  const fm = fs ? parseFieldSelector(def, fs) : undefined;
  void core;
  return (o) =>
    (!namespace || o.metadata.namespace === namespace) && (!lm || lm(labelsOf(o))) && (!fm || fm(o));
}

export function getOne(core: Core, ctx: Ctx, def: ResourceDef, namespace: string, name: string): void {
  const o = core.get(def, namespace, name);
  if (!o) throw notFound(def, name);
  const neg = negotiate(ctx.req.headers.accept, false);
  if (neg.table) {
    const t = toTable(
      def,
      [o],
      { resourceVersion: String(o.metadata.resourceVersion) },
      neg.table,
      ctx.query.get('includeObject') ?? 'Metadata',
    );
    sendJson(ctx, 200, t);
    return;
  }
  sendJson(ctx, 200, objectJson(presented(def, o)));
}

async function waitForRv(core: Core, rv: number): Promise<void> {
  for (let i = 0; i < 30 && core.store.rv < rv; i++) await new Promise((r) => setTimeout(r, 100));
  if (core.store.rv < rv) {
    throw new ApiError(
      504,
      statusBody(504, `Timeout: Too large resource version: ${rv}, current: ${core.store.rv}`, 'Timeout', {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      }),
      { 'Retry-After': '1' },
    );
  }
}

export async function list(core: Core, ctx: Ctx, def: ResourceDef, namespace: string): Promise<void> {
  const q = ctx.query;
  const rvParam = q.get('resourceVersion');
  const match = q.get('resourceVersionMatch');
  const cont = q.get('continue');
  const limit = Number(q.get('limit') ?? 0) || 0;
  const matches = matcherFor(core, ctx, def, namespace);
  if (match && !rvParam) {
    throw optionsInvalid(
      'ListOptions',
      'resourceVersionMatch',
      'FieldValueForbidden',
      'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  }
  if (match === 'Exact' && rvParam === '0') {
    throw optionsInvalid(
      'ListOptions',
      'resourceVersionMatch',
      'FieldValueForbidden',
      'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
  }
  let rv = core.store.rv;
  let start = '';
  let paged = limit > 0;
  if (cont) {
    if (rvParam) throw badRequest('specifying resource version is not allowed when using continue');
    ({ rv, start } = decodeContinue(cont));
    if (rv < 0) rv = core.store.rv;
  } else if (rvParam === '0') {
    paged = false;
  } else if (rvParam) {
    const want = parseRv(rvParam);
    if (match === 'Exact') {
      if (want > core.store.rv)
        throw apiError(500, 'etcdserver: mvcc: required revision is a future revision', '');
      rv = want;
    } else await waitForRv(core, want);
  }
  const snap = core.store.snapshot(storeKey(def), rv);
  if (snap === 'expired' || snap === 'future') {
    if (cont) {
      const body = statusBody(
        410,
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        'Expired',
        undefined,
        { continue: encodeContinue(-1, start) },
      );
      throw new ApiError(410, body);
    }
    throw apiError(410, 'The resourceVersion for the provided list is too old.', 'Expired');
  }
  // The snapshot is sorted by key: a page starts at its key (binary search) and stops once full, so
  // paging through 100,000 pods does not filter every object for every page. Past a full page the rest
  // is only counted, and only when remainingItemCount is sent (no selectors), as a real server does.
  const counted = !q.get('labelSelector') && !q.get('fieldSelector');
  const items: KObj[] = [];
  let more = 0;
  for (let i = start ? firstAtOrAfter(core, def, snap, start) : 0; i < snap.length; i++) {
    const o = snap[i] as KObj;
    if (!matches(o)) continue;
    if (!paged || items.length < limit) items.push(o);
    else {
      more++;
      if (!counted) break;
    }
  }
  const meta: JsonObject = { resourceVersion: String(rv) };
  if (more > 0) {
    const last = items[limit - 1] as KObj;
    meta.continue = encodeContinue(rv, `${core.keyOfObj(def, last)}\u0000`);
    if (counted) meta.remainingItemCount = more;
  } else if (!def.builtin) meta.continue = '';
  sendList(ctx, def, items, meta);
}

/** The index of the first object whose key is at or after `start` in a key-sorted snapshot. */
function firstAtOrAfter(core: Core, def: ResourceDef, snap: readonly KObj[], start: string): number {
  let lo = 0;
  let hi = snap.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (core.keyOfObj(def, snap[mid] as KObj) < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sendList(ctx: Ctx, def: ResourceDef, items: KObj[], meta: JsonObject): void {
  const neg = negotiate(ctx.req.headers.accept, false);
  if (neg.table) {
    const { continue: c, ...rest } = meta;
    const tmeta: JsonObject = c ? meta : rest;
    sendJson(ctx, 200, toTable(def, items, tmeta, neg.table, ctx.query.get('includeObject') ?? 'Metadata'));
    return;
  }
  const body = items.map((o) => itemJson(def, presented(def, o))).join(',');
  const head = def.builtin
    ? `{"kind":${JSON.stringify(def.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(def))},"metadata":${JSON.stringify(meta)},"items":[`
    : `{"apiVersion":${JSON.stringify(apiVersionOf(def))},"items":[`;
  const tail = def.builtin
    ? ']}'
    : `],"kind":${JSON.stringify(def.listKind)},"metadata":${JSON.stringify(meta)}}`;
  sendJson(ctx, 200, head + body + tail);
}
