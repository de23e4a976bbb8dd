/**
 * Reading a range of one cluster's timeline, for the window, the CLI's `history` and the morning
 * summary. Every list is capped (the newest rows are kept and `truncated` says so); telemetry and the
 * ready-nodes line are bucketed so a 30-day range stays a few hundred points per line whatever was
 * stored. Rows are read back through plain checks: the file is ours, but a damaged one must not crash.
 */
import type { DatabaseSync } from 'node:sqlite';
import type {
  CountPoint,
  FreeLine,
  NodeChange,
  NodeChangeKind,
  Stat,
  TelemetryPoint,
  TimelineAlert,
  TimelineEvent,
  TimelineQuery,
  TimelineSpan,
  TimelineStatus,
  TimelineView,
} from '../../common/timeline.ts';
import { BUCKET_MS, bucketOf } from './energy.ts';
import { episodesOf } from './episodes.ts';
import { ALL_CONTEXTS } from './records.ts';
import { aggregatedTo, NODE_MINUTES } from './retention.ts';

export const MAX_CHANGES = 5_000;
export const MAX_ALERTS = 1_000;
export const MAX_EVENTS = 1_000;
export const MAX_SPANS = 1_000;
/** Points per line: the counts line and each node's telemetry. */
export const POINTS = 360;
/** Nodes whose telemetry a cluster-wide range shows. */
export const MAX_TELEMETRY_NODES = 32;

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const numOrNull = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const KINDS = new Set<NodeChangeKind>(['ready', 'gpus', 'labels']);

function nodesOf(v: unknown): string[] {
  try {
    const parsed: unknown = JSON.parse(str(v));
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function change(r: Row): NodeChange | null {
  const kind = str(r.kind) as NodeChangeKind;
  if (!KINDS.has(kind)) return null;
  return {
    node: str(r.node),
    at: num(r.at),
    kind,
    from: str(r.f),
    to: str(r.t),
    reason: strOrNull(r.reason),
    message: strOrNull(r.message),
  };
}

function stat(min: unknown, avg: unknown, max: unknown): Stat | null {
  const a = numOrNull(avg);
  return a === null ? null : { min: numOrNull(min) ?? a, avg: a, max: numOrNull(max) ?? a };
}

/** A line's bucket: whole minutes, and whole 15-minute aggregates once it spans one or more. */
export function bucketMs(from: number, to: number): number {
  const b = Math.max(60_000, Math.ceil((to - from) / POINTS / 60_000) * 60_000);
  return b >= BUCKET_MS ? Math.ceil(b / BUCKET_MS) * BUCKET_MS : b;
}

/**
 * Where a telemetry read switches from aggregates to minute samples. A line of 15-minute buckets or
 * wider reads aggregates up to where they were folded (retention.ts) and samples only after it (at most
 * one open bucket's worth); a finer line reads samples from the oldest one kept, aggregates before it.
 */
function telemetrySplit(db: DatabaseSync, ctx: string, b: number): number {
  if (b >= BUCKET_MS) return aggregatedTo(db);
  const row = db.prepare('SELECT min(at) AS at FROM samples WHERE ctx = ?').get(ctx) as Row | undefined;
  const at = numOrNull(row?.at);
  return at === null ? Number.MAX_SAFE_INTEGER : bucketOf(at, BUCKET_MS);
}

function counts(db: DatabaseSync, q: TimelineQuery): CountPoint[] {
  const before = db
    .prepare('SELECT at, ready, total, gpus FROM counts WHERE ctx = ? AND at < ? ORDER BY at DESC LIMIT 1')
    .get(q.context, q.from) as Row | undefined;
  const b = bucketMs(q.from, q.to);
  // Per bucket two points: at its first row the fewest ready nodes (a drop is never smoothed away), the
  // most nodes and the fewest GPUs; at its last row what it ended with. One pass over the covering
  // index (migration 2), rows as arrays: a 30-day range of a busy cluster is tens of thousands of rows.
  const st = db.prepare(
    'SELECT at, ready, total, gpus FROM counts WHERE ctx = ? AND at >= ? AND at < ? ORDER BY at',
  );
  st.setReturnArrays(true);
  const out: CountPoint[] = [];
  if (before) out.push({ ...point(before), at: q.from });
  let low: CountPoint | null = null;
  let last: CountPoint | null = null;
  let bucket = Number.NaN;
  const close = () => {
    if (low) out.push(low);
    if (low && last && last.at > low.at) out.push(last);
  };
  for (const r of st.iterate(q.context, q.from, q.to) as Iterable<unknown[]>) {
    const p: CountPoint = { at: num(r[0]), ready: num(r[1]), total: num(r[2]), gpus: num(r[3]) };
    const k = Math.floor(p.at / b);
    if (k !== bucket || !low) {
      close();
      bucket = k;
      low = { ...p };
    } else {
      low.ready = Math.min(low.ready, p.ready);
      low.total = Math.max(low.total, p.total);
      low.gpus = Math.min(low.gpus, p.gpus);
    }
    last = p;
  }
  close();
  return out;
}

function point(r: Row): CountPoint {
  return { at: num(r.at), ready: num(r.ready), total: num(r.total), gpus: num(r.gpus) };
}

function changes(db: DatabaseSync, q: TimelineQuery): { list: NodeChange[]; truncated: boolean } {
  const node = q.node === undefined ? '' : 'AND node = ?';
  const args = q.node === undefined ? [] : [q.node];
  const rows = db
    .prepare(
      `SELECT * FROM changes WHERE ctx = ? AND at >= ? AND at < ? ${node} ORDER BY at DESC, id DESC LIMIT ${MAX_CHANGES + 1}`,
    )
    .all(q.context, q.from, q.to, ...args) as Row[];
  // What each node was doing when the range began, so an episode begun earlier is seen to end in it.
  const carried = db
    .prepare(
      `SELECT c.* FROM changes c JOIN (SELECT node, max(id) AS id FROM changes WHERE ctx = ? AND at < ? AND kind IN ('ready', 'gpus') ${node}
         GROUP BY node, kind) last ON c.id = last.id WHERE c.t <> 'Ready' LIMIT ${MAX_CHANGES}`,
    )
    .all(q.context, q.from, ...args) as Row[];
  const list = [...carried, ...rows.slice(0, MAX_CHANGES).reverse()].map(change).filter((c) => c !== null);
  return { list, truncated: rows.length > MAX_CHANGES };
}

function spans(db: DatabaseSync, q: TimelineQuery): TimelineSpan[] {
  const rows = db
    .prepare(
      `SELECT kind, f, t, message FROM spans WHERE ctx IN (?, ?) AND f < ? AND (t IS NULL OR t >= ?)
       ORDER BY f DESC LIMIT ${MAX_SPANS}`,
    )
    .all(q.context, ALL_CONTEXTS, q.to, q.from) as Row[];
  return rows.reverse().map((r) => ({
    kind: str(r.kind) === 'unreachable' ? 'unreachable' : 'not-recording',
    from: num(r.f),
    to: numOrNull(r.t),
    message: strOrNull(r.message),
  }));
}

function alerts(db: DatabaseSync, q: TimelineQuery): { list: TimelineAlert[]; truncated: boolean } {
  const rows = db
    .prepare(
      `SELECT * FROM alerts WHERE ctx = ? AND at >= ? AND at < ? ORDER BY at DESC LIMIT ${MAX_ALERTS + 1}`,
    )
    .all(q.context, q.from, q.to) as Row[];
  const deliveries = db.prepare(
    'SELECT at, channel, ok, message FROM deliveries WHERE alert = ? ORDER BY at LIMIT 20',
  );
  const list = rows
    .slice(0, MAX_ALERTS)
    .reverse()
    .map((r) => ({
      id: str(r.id),
      at: num(r.at),
      kind: str(r.kind),
      nodes: nodesOf(r.nodes),
      title: str(r.title),
      body: str(r.body),
      deliveries: (deliveries.all(str(r.id)) as Row[]).map((d) => ({
        at: num(d.at),
        channel: str(d.channel),
        ok: d.ok === 1,
        message: strOrNull(d.message),
      })),
    }))
    .filter((a) => q.node === undefined || a.nodes.length === 0 || a.nodes.includes(q.node));
  return { list, truncated: rows.length > MAX_ALERTS };
}

function events(db: DatabaseSync, q: TimelineQuery): TimelineEvent[] {
  const node = q.node === undefined ? '' : 'AND node = ?';
  const rows = db
    .prepare(
      `SELECT * FROM events WHERE ctx = ? AND last >= ? AND first < ? ${node} ORDER BY last DESC LIMIT ${MAX_EVENTS}`,
    )
    .all(q.context, q.from, q.to, ...(q.node === undefined ? [] : [q.node])) as Row[];
  return rows.reverse().map((r) => ({
    node: str(r.node),
    type: str(r.type),
    reason: str(r.reason),
    message: str(r.message),
    count: num(r.count),
    first: num(r.first),
    last: num(r.last),
  }));
}

function telemetry(db: DatabaseSync, q: TimelineQuery): TelemetryPoint[] {
  const b = bucketMs(q.from, q.to);
  const split = Math.min(Math.max(telemetrySplit(db, q.context, b), q.from), q.to);
  const node = q.node === undefined ? '' : 'AND node = ?';
  const args = q.node === undefined ? [] : [q.node];
  const aggArgs = [q.context, q.from, split, ...args];
  const rawArgs = [q.context, split, q.to, ...args];
  const nodes = (
    db
      .prepare(
        `SELECT DISTINCT node FROM (SELECT node FROM node_agg WHERE ctx = ? AND at >= ? AND at < ? ${node}
         UNION SELECT node FROM samples WHERE ctx = ? AND at >= ? AND at < ? ${node}) ORDER BY node LIMIT ${MAX_TELEMETRY_NODES}`,
      )
      .all(...aggArgs, ...rawArgs) as Row[]
  ).map((r) => str(r.node));
  if (nodes.length === 0) return [];
  const marks = nodes.map(() => '?').join(', ');
  return telemetryPoints(perNode(db, q, b, split, nodes, marks));
}

/**
 * The per-node aggregates up to `split`, the minute samples after it (as per-node minutes: the node's
 * power and memory the sum over its GPUs), re-bucketed together.
 */
function perNode(
  db: DatabaseSync,
  q: TimelineQuery,
  b: number,
  split: number,
  nodes: readonly string[],
  marks: string,
): Row[] {
  const cols = (c: string) => `${c}_min AS ${c}_lo, ${c}_avg, ${c}_max AS ${c}_hi`;
  const sel = (c: string) =>
    `min(${c}_lo) AS ${c}_lo, sum(${c}_avg * k) / sum(CASE WHEN ${c}_avg IS NULL THEN 0 ELSE k END) AS ${c}_mean, max(${c}_hi) AS ${c}_hi`;
  const stats = ['util', 'temp', 'power', 'mem'];
  return db
    .prepare(
      `SELECT node, (at / ${b}) * ${b} AS b, max(g) AS gpus, ${stats.map(sel).join(', ')}, max(xid) AS xid
       FROM (SELECT node, at, gpus AS g, n AS k, ${stats.map(cols).join(', ')}, xid FROM node_agg
           WHERE ctx = ? AND at >= ? AND at < ? AND node IN (${marks})
         UNION ALL SELECT node, at, g, k, ${stats.map((c) => `${c}_lo, ${c}_avg, ${c}_hi`).join(', ')}, xid
           FROM (${NODE_MINUTES}) WHERE node IN (${marks}))
       GROUP BY node, b ORDER BY node, b`,
    )
    .all(q.context, q.from, split, ...nodes, q.context, split, q.to, ...nodes) as Row[];
}

function telemetryPoints(rows: readonly Row[]): TelemetryPoint[] {
  return rows.map((r) => ({
    node: str(r.node),
    at: num(r.b),
    gpus: num(r.gpus),
    util: stat(r.util_lo, r.util_mean, r.util_hi),
    temp: stat(r.temp_lo, r.temp_mean, r.temp_hi),
    power: stat(r.power_lo, r.power_mean, r.power_hi),
    mem: stat(r.mem_lo, r.mem_mean, r.mem_hi),
    xid: numOrNull(r.xid),
  }));
}

/** Products a range shows free GPUs of. */
export const MAX_FREE_LINES = 16;

/**
 * Free GPUs by product: per bucket the fewest free (a shortage is never smoothed away), from the value
 * each product had when the range began.
 */
function free(db: DatabaseSync, q: TimelineQuery): FreeLine[] {
  const b = bucketMs(q.from, q.to);
  const products = (
    db
      .prepare(
        `SELECT DISTINCT product FROM free WHERE ctx = ? AND at < ? ORDER BY product LIMIT ${MAX_FREE_LINES}`,
      )
      .all(q.context, q.to) as Row[]
  ).map((r) => str(r.product));
  const before = db.prepare(
    'SELECT free FROM free WHERE ctx = ? AND product = ? AND at < ? ORDER BY at DESC LIMIT 1',
  );
  const buckets = db.prepare(
    `SELECT (at / ${b}) * ${b} AS b, min(at) AS at, min(free) AS free FROM free
     WHERE ctx = ? AND product = ? AND at >= ? AND at < ? GROUP BY b ORDER BY b LIMIT ${POINTS + 1}`,
  );
  const out: FreeLine[] = [];
  for (const product of products) {
    const points: FreeLine['points'] = [];
    const start = before.get(q.context, product, q.from) as Row | undefined;
    if (start) points.push({ at: q.from, free: num(start.free) });
    const inRange = buckets.all(q.context, product, q.from, q.to) as Row[];
    for (const r of inRange) points.push({ at: num(r.at), free: num(r.free) });
    // A product gone before the range began (0 then, nothing since) has nothing to show.
    if (inRange.length > 0 || points.some((p) => p.free > 0)) out.push({ product, points });
  }
  return out;
}

function energy(db: DatabaseSync, q: TimelineQuery): TimelineView['energy'] {
  const node = q.node === undefined ? '' : 'AND node = ?';
  const rows = db
    .prepare(
      `SELECT node, sum(wh) AS wh FROM energy WHERE ctx = ? AND at >= ? AND at < ? ${node} GROUP BY node ORDER BY wh DESC`,
    )
    .all(q.context, q.from, q.to, ...(q.node === undefined ? [] : [q.node])) as Row[];
  const nodes = rows.map((r) => ({ node: str(r.node), kwh: num(r.wh) / 1000 }));
  return { nodes, kwh: nodes.reduce((s, n) => s + n.kwh, 0) };
}

export function readTimeline(db: DatabaseSync, q: TimelineQuery, status: TimelineStatus): TimelineView {
  const c = changes(db, q);
  const a = alerts(db, q);
  const s = spans(db, q);
  const e = events(db, q);
  const episodes = episodesOf(c.list, q.node === undefined ? s : [], e, a.list).filter(
    (ep) => ep.to === null || ep.to >= q.from,
  );
  return {
    context: q.context,
    from: q.from,
    to: q.to,
    node: q.node ?? null,
    status,
    counts: q.node === undefined ? counts(db, q) : [],
    changes: c.list.filter((x) => x.at >= q.from),
    spans: s,
    alerts: a.list,
    events: e,
    episodes,
    telemetry: telemetry(db, q),
    energy: energy(db, q),
    free: q.node === undefined ? free(db, q) : [],
    truncated: c.truncated || a.truncated,
  };
}

/**
 * Whether some process is recording, as a reader can tell: the writer's last sign of life (it writes one
 * at least every minute while it runs).
 */
export function writerStatus(db: DatabaseSync, now: number, staleMs: number): TimelineStatus {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'alive_at'").get() as Row | undefined;
  const at = Number(str(row?.value));
  if (Number.isFinite(at) && at > 0 && now - at <= staleMs) return { state: 'recording' };
  const when = Number.isFinite(at) && at > 0 ? `; last recorded ${new Date(at).toISOString()}` : '';
  return {
    state: 'not-recording',
    kind: 'stopped',
    reason: `GPU Fleet is not running${when}`,
    since: Number.isFinite(at) ? at : 0,
  };
}

/** The contexts the timeline knows, for the CLI's default. */
export function recordedContexts(db: DatabaseSync): string[] {
  return (db.prepare('SELECT DISTINCT ctx FROM counts ORDER BY ctx').all() as Row[]).map((r) => str(r.ctx));
}
