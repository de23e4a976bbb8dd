/**
 * The timeline database's schema, as numbered steps: `PRAGMA user_version` says which ran, each step
 * runs once in its own transaction, and a database from a newer GPU Fleet is refused, never altered.
 * Times are epoch ms (INTEGER); telemetry buckets are minutes (raw) or 15 minutes (aggregates).
 */
import type { DatabaseSync } from 'node:sqlite';

const STEPS: readonly string[] = [
  // 1: the first schema.
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
   CREATE TABLE node_state (ctx TEXT NOT NULL, node TEXT NOT NULL, ready TEXT NOT NULL,
     gpus TEXT NOT NULL, labels TEXT NOT NULL, PRIMARY KEY (ctx, node)) STRICT, WITHOUT ROWID;
   CREATE TABLE changes (id INTEGER PRIMARY KEY, ctx TEXT NOT NULL, node TEXT NOT NULL, at INTEGER NOT NULL,
     kind TEXT NOT NULL, f TEXT NOT NULL, t TEXT NOT NULL, reason TEXT, message TEXT) STRICT;
   CREATE INDEX changes_at ON changes (ctx, at);
   CREATE TABLE counts (ctx TEXT NOT NULL, at INTEGER NOT NULL, ready INTEGER NOT NULL,
     total INTEGER NOT NULL, gpus INTEGER NOT NULL) STRICT;
   CREATE INDEX counts_at ON counts (ctx, at);
   CREATE TABLE spans (id INTEGER PRIMARY KEY, ctx TEXT NOT NULL, kind TEXT NOT NULL,
     f INTEGER NOT NULL, t INTEGER, message TEXT) STRICT;
   CREATE INDEX spans_at ON spans (ctx, f);
   CREATE TABLE alerts (id TEXT PRIMARY KEY, ctx TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL,
     nodes TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL) STRICT;
   CREATE INDEX alerts_at ON alerts (ctx, at);
   CREATE TABLE deliveries (alert TEXT NOT NULL, at INTEGER NOT NULL, channel TEXT NOT NULL,
     ok INTEGER NOT NULL, message TEXT) STRICT;
   CREATE INDEX deliveries_alert ON deliveries (alert);
   CREATE TABLE events (ctx TEXT NOT NULL, uid TEXT NOT NULL, node TEXT NOT NULL, type TEXT NOT NULL,
     reason TEXT NOT NULL, message TEXT NOT NULL, count INTEGER NOT NULL, first INTEGER NOT NULL,
     last INTEGER NOT NULL, PRIMARY KEY (ctx, uid)) STRICT;
   CREATE INDEX events_last ON events (ctx, last);
   CREATE TABLE samples (ctx TEXT NOT NULL, node TEXT NOT NULL, gpu INTEGER NOT NULL, at INTEGER NOT NULL,
     util REAL, temp REAL, power REAL, mem REAL, xid INTEGER,
     PRIMARY KEY (ctx, at, node, gpu)) STRICT, WITHOUT ROWID;
   CREATE TABLE aggregates (ctx TEXT NOT NULL, node TEXT NOT NULL, gpu INTEGER NOT NULL, at INTEGER NOT NULL,
     n INTEGER NOT NULL,
     util_min REAL, util_avg REAL, util_max REAL, temp_min REAL, temp_avg REAL, temp_max REAL,
     power_min REAL, power_avg REAL, power_max REAL, mem_min REAL, mem_avg REAL, mem_max REAL, xid INTEGER,
     PRIMARY KEY (ctx, at, node, gpu)) STRICT, WITHOUT ROWID;
   CREATE TABLE energy (ctx TEXT NOT NULL, node TEXT NOT NULL, gpu INTEGER NOT NULL, at INTEGER NOT NULL,
     wh REAL NOT NULL, PRIMARY KEY (ctx, at, node, gpu)) STRICT, WITHOUT ROWID;
   CREATE TABLE last_power (ctx TEXT NOT NULL, node TEXT NOT NULL, gpu INTEGER NOT NULL, at INTEGER NOT NULL,
     watts REAL NOT NULL, PRIMARY KEY (ctx, node, gpu)) STRICT, WITHOUT ROWID;`,
  // 2: the ready-nodes line is read from its index alone (bench row 11c: a 30-day range of a busy
  // cluster is tens of thousands of rows, each a table lookup otherwise).
  `CREATE INDEX counts_line ON counts (ctx, at, ready, total, gpus);
   DROP INDEX counts_at;`,
  // 3: 15-minute telemetry per node (power and memory the node's total), what a long range reads: a
  // 30-day line is then 2,880 rows a node however many GPUs it has. Filled from the per-GPU aggregates.
  `CREATE TABLE node_agg (ctx TEXT NOT NULL, node TEXT NOT NULL, at INTEGER NOT NULL, gpus INTEGER NOT NULL,
     n INTEGER NOT NULL,
     util_min REAL, util_avg REAL, util_max REAL, temp_min REAL, temp_avg REAL, temp_max REAL,
     power_min REAL, power_avg REAL, power_max REAL, mem_min REAL, mem_avg REAL, mem_max REAL, xid INTEGER,
     PRIMARY KEY (ctx, at, node)) STRICT, WITHOUT ROWID;
   INSERT INTO node_agg SELECT ctx, node, at, count(DISTINCT gpu) AS g, sum(n),
     min(util_min), sum(util_avg * n) / sum(CASE WHEN util_avg IS NULL THEN 0 ELSE n END), max(util_max),
     min(temp_min), sum(temp_avg * n) / sum(CASE WHEN temp_avg IS NULL THEN 0 ELSE n END), max(temp_max),
     min(power_min) * count(DISTINCT gpu), sum(power_avg * n) / sum(CASE WHEN power_avg IS NULL THEN 0 ELSE n END) * count(DISTINCT gpu), max(power_max) * count(DISTINCT gpu),
     min(mem_min) * count(DISTINCT gpu), sum(mem_avg * n) / sum(CASE WHEN mem_avg IS NULL THEN 0 ELSE n END) * count(DISTINCT gpu), max(mem_max) * count(DISTINCT gpu),
     max(xid)
   FROM aggregates GROUP BY ctx, node, at;`,
  // 4: free GPUs by product, a row per product whenever the figures change (the chart's free lines).
  `CREATE TABLE free (ctx TEXT NOT NULL, at INTEGER NOT NULL, product TEXT NOT NULL, free INTEGER NOT NULL,
     PRIMARY KEY (ctx, product, at)) STRICT, WITHOUT ROWID;`,
];

export const SCHEMA_VERSION = STEPS.length;

export class NewerTimelineError extends Error {}

/** Brings the database to SCHEMA_VERSION; throws NewerTimelineError for a database from a newer app. */
export function migrateTimeline(db: DatabaseSync): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  const at = row?.user_version ?? 0;
  if (at > SCHEMA_VERSION)
    throw new NewerTimelineError(
      `the timeline was written by a newer GPU Fleet (schema ${at}; this one knows ${SCHEMA_VERSION})`,
    );
  for (let v = at; v < SCHEMA_VERSION; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(STEPS[v] as string);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
