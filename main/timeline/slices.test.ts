import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../kube/clock.ts';
import { FLUSH_MS, SLICE } from './recorder.ts';
import { inventory, node, notReady, recorder, tempDir } from './timeline.testkit.ts';

/** A clock whose timers run one at a time, so a test sees each write task on its own. */
class StepClock implements Clock {
  at = Date.UTC(2026, 10, 29, 12);
  timers: { id: number; due: number; fn: () => void }[] = [];
  #id = 0;
  now = () => this.at;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.#id;
    this.timers.push({ id, due: this.at + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== h);
  };
  sleep = () => Promise.resolve();
  /** Runs the next timer that is due within `ms` (the heartbeat is a minute away): false when none. */
  step(ms = FLUSH_MS): boolean {
    this.timers.sort((a, b) => a.due - b.due || a.id - b.id);
    const t = this.timers[0];
    if (!t || t.due > this.at + ms) return false;
    this.timers.shift();
    this.at = Math.max(this.at, t.due);
    t.fn();
    return true;
  }
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('the writer works in short turns', () => {
  it('writes a 1,000-node first inventory SLICE rows per timer task, and the changes after it in order', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const clock = new StepClock();
    const { rec } = recorder(dir, clock as never);
    cleanups.push(() => rec.stop());
    const look = new DatabaseSync(path.join(dir, 'timeline.db'), { readOnly: true });
    cleanups.push(() => look.close());
    const states = () =>
      Number((look.prepare('SELECT count(*) AS n FROM node_state').get() as { n: number }).n);
    const names = Array.from({ length: 1000 }, (_, i) => `n${String(i).padStart(4, '0')}`);
    rec.inventory('lab', inventory(names.map((name) => node({ name }))));
    rec.inventory('lab', inventory(names.map((name, i) => (i === 7 ? notReady(name) : node({ name })))));
    expect(clock.step()).toBe(true);
    expect(states()).toBe(SLICE);
    let turns = 1;
    while (clock.step(0)) turns++;
    // 1,000 states and a count for the first inventory; a state, a change and a count for the second.
    expect(turns).toBe(Math.ceil(1004 / SLICE));
    expect(states()).toBe(1000);
    const changes = look.prepare('SELECT node, f, t FROM changes').all();
    expect(changes).toEqual([{ node: 'n0007', f: 'Ready', t: 'Unknown' }]);
    expect(Number((look.prepare('SELECT count(*) AS n FROM counts').get() as { n: number }).n)).toBe(2);
  });
});
