/**
 * Keeping the database small, run by the recorder now and then (never per write):
 * - telemetry older than RAW_KEEP_MS (24 h) becomes 15-minute aggregates (min/avg/max) and the minute
 *   samples go;
 * - rows older than the retention (30 days by default) go;
 * - past the size cap, the oldest day of everything goes, again until the data fits;
 * - VACUUM (which rewrites the whole file) only when the recorder has been idle and a quarter of the
 *   file is free pages.
 */
import type { DatabaseSync } from 'node:sqlite';
import { BUCKET_MS, bucketOf } from './energy.ts';

export const RAW_KEEP_MS = 24 * 3_600_000;
const DAY_MS = 86_400_000;

/** Time-keyed tables and their time column. */
const TIMED: readonly [string, string][] = [
  ['changes', 'at'],
  ['counts', 'at'],
  ['alerts', 'at'],
  ['events', 'last'],
  ['samples', 'at'],
  ['aggregates', 'at'],
  ['energy', 'at'],
];

function merge(col: string): string {
  return `${col}_min = min(${col}_min, excluded.${col}_min), ${col}_max = max(${col}_max, excluded.${col}_max),
    ${col}_avg = (coalesce(${col}_avg, excluded.${col}_avg) * n + coalesce(excluded.${col}_avg, ${col}_avg) * excluded.n) / (n + excluded.n)`;
}

/** Minute samples before `cutoff` (aligned down to a bucket) become aggregates. Returns rows folded. */
export function downsample(db: DatabaseSync, now: number): number {
  const cutoff = bucketOf(now - RAW_KEEP_MS, BUCKET_MS);
  const stat = (c: string) => `min(${c}), avg(${c}), max(${c})`;
  const fold = db.prepare(
    `INSERT INTO aggregates SELECT ctx, node, gpu, (at / ${BUCKET_MS}) * ${BUCKET_MS} AS b, count(*),
       ${stat('util')}, ${stat('temp')}, ${stat('power')}, ${stat('mem')}, max(xid)
     FROM samples WHERE ctx = ? AND at < ? GROUP BY ctx, node, gpu, b
     ON CONFLICT (ctx, at, node, gpu) DO UPDATE SET ${['util', 'temp', 'power', 'mem'].map(merge).join(', ')},
       xid = max(coalesce(xid, excluded.xid), coalesce(excluded.xid, xid)), n = n + excluded.n`,
  );
  const drop = db.prepare('DELETE FROM samples WHERE ctx = ? AND at < ?');
  let n = 0;
  for (const ctx of contextsOf(db, 'samples')) {
    fold.run(ctx, cutoff);
    n += Number(drop.run(ctx, cutoff).changes);
  }
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
