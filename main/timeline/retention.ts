/**
 * Keeping the database small, run by the recorder now and then (never per write):
 * - telemetry becomes 15-minute aggregates (min/avg/max) as each bucket closes, and the minute samples
 *   go after RAW_KEEP_MS (24 h);
 * - rows older than the retention (30 days by default) go;
 * - past the size cap, the oldest day of everything goes, again until the data fits;
 * - VACUUM (which rewrites the whole file) only when the recorder has been idle and a quarter of the
 *   file is free pages.
 */
import type { DatabaseSync } from 'node:sqlite';
import { BUCKET_MS, bucketOf } from './energy.ts';

export const RAW_KEEP_MS = 24 * 3_600_000;
export const DAY_MS = 86_400_000;

/** Time-keyed tables and their time column. */
const TIMED: readonly [string, string][] = [
  ['changes', 'at'],
  ['counts', 'at'],
  ['alerts', 'at'],
  ['events', 'last'],
  ['samples', 'at'],
  ['aggregates', 'at'],
  ['node_agg', 'at'],
  ['free', 'at'],
  ['energy', 'at'],
];

function merge(col: string): string {
  return `${col}_min = min(${col}_min, excluded.${col}_min), ${col}_max = max(${col}_max, excluded.${col}_max),
    ${col}_avg = (coalesce(${col}_avg, excluded.${col}_avg) * n + coalesce(excluded.${col}_avg, ${col}_avg) * excluded.n) / (n + excluded.n)`;
}

/**
 * Minute samples as one row per node and minute: GPUs seen, samples (k), the GPUs' min/avg/max of util
 * and temperature, and the node's power and memory (the sum over its GPUs), b its 15-minute bucket.
 * Parameters: ctx, from, to.
 */
export const NODE_MINUTES = `SELECT ctx, node, at, (at / ${BUCKET_MS}) * ${BUCKET_MS} AS b, count(DISTINCT gpu) AS g,
    count(*) AS k, min(util) AS util_lo, avg(util) AS util_avg, max(util) AS util_hi,
    min(temp) AS temp_lo, avg(temp) AS temp_avg, max(temp) AS temp_hi,
    sum(power) AS power_lo, sum(power) AS power_avg, sum(power) AS power_hi,
    sum(mem) AS mem_lo, sum(mem) AS mem_avg, sum(mem) AS mem_hi,
    max(xid) AS xid
  FROM samples WHERE ctx = ? AND at >= ? AND at < ? GROUP BY node, at`;

/** Up to when (epoch ms, a bucket's start) minute samples have been folded into aggregates; 0: never. */
export function aggregatedTo(db: DatabaseSync): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'aggregated_to'").get() as
    | { value: string }
    | undefined;
  const at = Number(row?.value);
  return Number.isFinite(at) && at > 0 ? at : 0;
}

/**
 * Minute samples of every closed 15-minute bucket not folded yet become aggregates (so a long range reads
 * aggregates only, read.ts); samples older than RAW_KEEP_MS then go. Returns the samples deleted.
 */
export function downsample(db: DatabaseSync, now: number): number {
  const from = aggregatedTo(db);
  const upto = bucketOf(now, BUCKET_MS);
  const cutoff = Math.min(bucketOf(now - RAW_KEEP_MS, BUCKET_MS), Math.max(from, upto));
  const stat = (c: string) => `min(${c}), avg(${c}), max(${c})`;
  const fold = db.prepare(
    `INSERT INTO aggregates SELECT ctx, node, gpu, (at / ${BUCKET_MS}) * ${BUCKET_MS} AS b, count(*),
       ${stat('util')}, ${stat('temp')}, ${stat('power')}, ${stat('mem')}, max(xid)
     FROM samples WHERE ctx = ? AND at >= ? AND at < ? GROUP BY ctx, node, gpu, b
     ON CONFLICT (ctx, at, node, gpu) DO UPDATE SET ${['util', 'temp', 'power', 'mem'].map(merge).join(', ')},
       xid = max(coalesce(xid, excluded.xid), coalesce(excluded.xid, xid)), n = n + excluded.n`,
  );
  const perNode = db.prepare(
    `INSERT INTO node_agg SELECT ctx, node, b, max(g), sum(k), min(util_lo), sum(util_avg * k) / sum(CASE WHEN util_avg IS NULL THEN 0 ELSE k END), max(util_hi),
       min(temp_lo), sum(temp_avg * k) / sum(CASE WHEN temp_avg IS NULL THEN 0 ELSE k END), max(temp_hi),
       min(power_lo), sum(power_avg * k) / sum(CASE WHEN power_avg IS NULL THEN 0 ELSE k END), max(power_hi),
       min(mem_lo), sum(mem_avg * k) / sum(CASE WHEN mem_avg IS NULL THEN 0 ELSE k END), max(mem_hi), max(xid)
     FROM (${NODE_MINUTES}) GROUP BY ctx, node, b
     ON CONFLICT (ctx, at, node) DO NOTHING`,
  );
  const drop = db.prepare('DELETE FROM samples WHERE ctx = ? AND at < ?');
  let n = 0;
  for (const ctx of contextsOf(db, 'samples')) {
    if (upto > from) {
      fold.run(ctx, from, upto);
      perNode.run(ctx, from, upto);
    }
    n += Number(drop.run(ctx, cutoff).changes);
  }
  if (upto > from)
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('aggregated_to', ?)").run(String(upto));
  return n;
}

/** The contexts a table holds, read through its (ctx, …) key: each delete below is then a range of it. */
function contextsOf(db: DatabaseSync, table: string): string[] {
  const out: string[] = [];
  let row = db.prepare(`SELECT min(ctx) AS c FROM ${table}`).get() as { c: string | null };
  const next = db.prepare(`SELECT min(ctx) AS c FROM ${table} WHERE ctx > ?`);
  for (let i = 0; i < 10_000 && row.c !== null; i++) {
    out.push(row.c);
    row = next.get(row.c) as { c: string | null };
  }
  return out;
}

function deleteBefore(db: DatabaseSync, cutoff: number): number {
  let n = 0;
  for (const [table, col] of TIMED) {
    const del = db.prepare(`DELETE FROM ${table} WHERE ctx = ? AND ${col} < ?`);
    for (const ctx of contextsOf(db, table)) n += Number(del.run(ctx, cutoff).changes);
  }
  n += Number(db.prepare('DELETE FROM spans WHERE t IS NOT NULL AND t < ?').run(cutoff).changes);
  n += Number(db.prepare('DELETE FROM deliveries WHERE alert NOT IN (SELECT id FROM alerts)').run().changes);
  return n;
}

/** Bytes the rows take (free pages not counted). */
export function usedBytes(db: DatabaseSync): number {
  const get = (pragma: string) =>
    Number((db.prepare(`PRAGMA ${pragma}`).get() as Record<string, number>)[pragma]);
  return (get('page_count') - get('freelist_count')) * get('page_size');
}

function oldest(db: DatabaseSync): number | null {
  let min: number | null = null;
  for (const [table, col] of TIMED) {
    const row = db.prepare(`SELECT min(${col}) AS m FROM ${table}`).get() as { m: number | null };
    if (row.m !== null && (min === null || row.m < min)) min = row.m;
  }
  return min;
}

export interface PruneResult {
  deleted: number;
  /** Rows deleted to honour the size cap (0 when it was not reached). */
  capped: number;
}

/** One pass of retention; runs in a transaction the caller does not hold. */
export function prune(db: DatabaseSync, now: number, retentionDays: number, maxBytes: number): PruneResult {
  db.exec('BEGIN IMMEDIATE');
  try {
    downsample(db, now);
    const deleted = deleteBefore(db, now - retentionDays * DAY_MS);
    let capped = 0;
    for (let round = 0; round < 400 && usedBytes(db) > maxBytes; round++) {
      const first = oldest(db);
      if (first === null) break;
      capped += deleteBefore(db, first + DAY_MS);
    }
    db.exec('COMMIT');
    return { deleted, capped };
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** Rewrites the file when a quarter or more of it is free; the caller decides it is idle. */
export function vacuumIfWorth(db: DatabaseSync): boolean {
  const get = (pragma: string) =>
    Number((db.prepare(`PRAGMA ${pragma}`).get() as Record<string, number>)[pragma]);
  const pages = get('page_count');
  if (pages < 64 || get('freelist_count') * 4 < pages) return false;
  db.exec('VACUUM');
  return true;
}
