/**
 * The writer's statements: one TimelineRecord → its rows, prepared once per connection. Telemetry keeps
 * one sample per GPU per minute (a second reading in the same minute replaces the first) and adds the
 * energy since the GPU's previous reading to its 15-minute bucket (energy.ts), the last reading kept in
 * the database so a restart goes on integrating.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { BUCKET_MS, bucketOf, MINUTE_MS, wattHours } from './energy.ts';
import type { TimelineRecord } from './records.ts';

function statements(db: DatabaseSync) {
  const p = (sql: string): StatementSync => db.prepare(sql);
  return {
    change: p(
      'INSERT INTO changes (ctx, node, at, kind, f, t, reason, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    statePut: p(
      'INSERT INTO node_state (ctx, node, ready, gpus, labels) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ctx, node) DO UPDATE SET ready = excluded.ready, gpus = excluded.gpus, labels = excluded.labels',
    ),
    stateDel: p('DELETE FROM node_state WHERE ctx = ? AND node = ?'),
    count: p('INSERT INTO counts (ctx, at, ready, total, gpus) VALUES (?, ?, ?, ?, ?)'),
    spanOpen: p('INSERT INTO spans (ctx, kind, f, t, message) VALUES (?, ?, ?, ?, ?)'),
    spanClose: p('UPDATE spans SET t = ? WHERE ctx = ? AND kind = ? AND t IS NULL'),
    alert: p(
      'INSERT INTO alerts (id, ctx, at, kind, nodes, title, body) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ),
    delivery: p('INSERT INTO deliveries (alert, at, channel, ok, message) VALUES (?, ?, ?, ?, ?)'),
    event: p(
      `INSERT INTO events (ctx, uid, node, type, reason, message, count, first, last) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (ctx, uid) DO UPDATE SET count = max(count, excluded.count), last = max(last, excluded.last), first = min(first, excluded.first),
           message = excluded.message`,
    ),
    sample: p(
      'INSERT OR REPLACE INTO samples (ctx, node, gpu, at, util, temp, power, mem, xid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    lastPower: p('SELECT at, watts FROM last_power WHERE ctx = ? AND node = ? AND gpu = ?'),
    putPower: p(
      'INSERT INTO last_power (ctx, node, gpu, at, watts) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ctx, node, gpu) DO UPDATE SET at = excluded.at, watts = excluded.watts',
    ),
    free: p('INSERT OR REPLACE INTO free (ctx, at, product, free) VALUES (?, ?, ?, ?)'),
    alive: p("INSERT OR REPLACE INTO meta (key, value) VALUES ('alive_at', ?)"),
    energy: p(
      'INSERT INTO energy (ctx, node, gpu, at, wh) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ctx, at, node, gpu) DO UPDATE SET wh = wh + excluded.wh',
    ),
  };
}

type Statements = ReturnType<typeof statements>;

export class TimelineWrites {
  readonly #s: Statements;

  constructor(db: DatabaseSync) {
    this.#s = statements(db);
  }

  /** The writer's sign of life (readers tell from it whether the app is recording). */
  alive(at: number): void {
    this.#s.alive.run(String(at));
  }

  apply(r: TimelineRecord): void {
    const run = (name: keyof Statements, ...args: (string | number | null)[]) => this.#s[name].run(...args);
    switch (r.t) {
      case 'change': {
        const c = r.change;
        run('change', r.ctx, c.node, c.at, c.kind, c.from, c.to, c.reason, c.message);
        return;
      }
      case 'state':
        if (r.state === null) run('stateDel', r.ctx, r.node);
        else run('statePut', r.ctx, r.node, r.state.ready, r.state.gpus, r.state.labels);
        return;
      case 'count':
        run('count', r.ctx, r.point.at, r.point.ready, r.point.total, r.point.gpus);
        return;
      case 'span-open':
        run('spanOpen', r.ctx, r.kind, r.from, r.to, r.message);
        return;
      case 'span-close':
        run('spanClose', r.to, r.ctx, r.kind);
        return;
      case 'alert': {
        const a = r.alert;
        run('alert', a.id, r.ctx, a.at, a.kind, JSON.stringify(a.nodes), a.title, a.body);
        return;
      }
      case 'delivery': {
        const d = r.delivery;
        run('delivery', r.alert, d.at, d.channel, d.ok ? 1 : 0, d.message);
        return;
      }
      case 'event': {
        const e = r.event;
        run('event', r.ctx, r.uid, e.node, e.type, e.reason, e.message, e.count, e.first, e.last);
        return;
      }
      case 'sample':
        this.#sample(r.ctx, r.sample);
        return;
      case 'free':
        run('free', r.ctx, r.at, r.product, r.free);
        return;
    }
  }

  #sample(ctx: string, g: Extract<TimelineRecord, { t: 'sample' }>['sample']): void {
    const s = this.#s;
    const minute = bucketOf(g.at, MINUTE_MS);
    s.sample.run(ctx, g.node, g.gpu, minute, g.util, g.temp, g.power, g.mem, g.xid);
    if (g.power === null) return;
    const prev = s.lastPower.get(ctx, g.node, g.gpu) as { at: number; watts: number } | undefined;
    if (prev !== undefined && prev.at >= g.at) return;
    const wh = wattHours(prev ?? null, { at: g.at, watts: g.power });
    if (wh > 0) s.energy.run(ctx, g.node, g.gpu, bucketOf(g.at, BUCKET_MS), wh);
    s.putPower.run(ctx, g.node, g.gpu, g.at, g.power);
  }
}
