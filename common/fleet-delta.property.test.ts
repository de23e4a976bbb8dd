/**
 * Property tests (fast-check) of the delta pushes: for arbitrary snapshots a and b — node and context
 * names among them `constructor`, `__proto__`, `toString`, repeated names, reordered lists, optional
 * fields coming and going — `applyDelta(a, diffSnapshots(a, b))` equals b, also after a JSON round trip
 * of both (as the window gets them), and every entry the delta leaves alone is a's own object.
 * Bounded and seeded: the seed and the shrunk counterexample are printed on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextSnapshot, FleetSnapshot, HistoryPoint } from './fleet.ts';
import { applyDelta, diffSnapshots, isEmptyDelta } from './fleet-delta.ts';
import type { GpuInventoryStatus, GpuNodeEntry } from './inventory.ts';

const RUNS = { seed: 20261215, numRuns: 300 };

/** Records with Object.prototype, as JSON.parse and object literals make them. */
const rec = ((model: never, constraints?: object) =>
  fc.record(model, { ...constraints, noNullPrototype: true } as never)) as typeof fc.record;

const PROTO = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const name = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTO) },
  { weight: 3, arbitrary: fc.constantFrom('gpu-0', 'gpu-1', 'gpu-2', 'a', 'B', 'gpu-01') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
);
const text = fc.oneof(fc.constantFrom('x', 'NVIDIA-H100', '__proto__'), fc.string({ maxLength: 6 }));
const nullableText = fc.option(text, { nil: null });

const entry = (n: fc.Arbitrary<string>): fc.Arbitrary<GpuNodeEntry> =>
  rec(
    {
      name: n,
      ready: fc.boolean(),
      product: nullableText,
      count: fc.nat(8),
      memory: fc.option(fc.nat(90_000), { nil: null }),
      workload: nullableText,
      not_ready_reason: nullableText,
      cordoned: fc.boolean(),
      problems: fc.array(text, { maxLength: 2 }),
      last_seen: fc.option(
        rec({ product: nullableText, count: fc.nat(4), memory: fc.option(fc.nat(9), { nil: null }) }),
        { nil: null },
      ),
    },
    { requiredKeys: ['name', 'ready', 'product', 'count', 'memory', 'workload'] },
  );

/** Unique names mostly (as the node cache makes them), repeated ones sometimes (a controller's list). */
const nodes = fc.oneof(
  { weight: 4, arbitrary: fc.uniqueArray(entry(name), { selector: (e) => e.name, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.array(entry(name), { maxLength: 5 }) },
);

const inventory: fc.Arbitrary<GpuInventoryStatus> = rec(
  {
    observed_at: fc.constantFrom('2026-12-01T00:00:00Z', '2026-12-01T00:00:01Z'),
    total_gpu_nodes: fc.nat(9),
    ready_gpu_nodes: fc.nat(9),
    total_gpus: fc.nat(70),
    nodes,
    nodes_compacted: fc.boolean(),
    nodes_omitted: fc.nat(3),
  },
  {
    requiredKeys: ['observed_at', 'total_gpu_nodes', 'ready_gpu_nodes', 'total_gpus', 'nodes'],
  },
);

const point: fc.Arbitrary<HistoryPoint> = rec({
  at: fc.constantFrom('2026-12-01T00:00:00Z', '2026-12-01T00:01:00Z'),
  ready: fc.nat(3),
  total: fc.nat(3),
  gpus: fc.nat(3),
});

const context = (n: fc.Arbitrary<string>): fc.Arbitrary<ContextSnapshot> =>
  rec(
    {
      context: n,
      server: nullableText,
      connection: rec({
        phase: fc.constantFrom('live', 'reconnecting', 'unreachable'),
        message: nullableText,
        since: fc.constant('2026-12-01T00:00:00Z'),
        lastLiveAt: fc.option(fc.constant('2026-12-01T00:00:00Z'), { nil: null }),
        attempt: fc.nat(3),
        retryAt: fc.constant(null),
      }),
      inventory: fc.option(inventory, { nil: null }),
      stale: fc.boolean(),
      history: fc.array(point, { maxLength: 4 }),
      writeback: rec({
        phase: fc.constantFrom('off', 'idle', 'conflict'),
        message: nullableText,
        lastWriteAt: fc.constant(null),
        writes: fc.nat(3),
        skipped: fc.nat(3),
      }),
      ignoredNodes: rec({ count: fc.nat(3), message: text }),
      telemetry: rec({
        hottest: fc.option(rec({ node: name, index: fc.nat(3), temperatureC: fc.nat(99) }), {
          nil: null,
        }),
        xids: fc.array(rec({ node: name, index: fc.nat(3), xid: fc.nat(120) }), { maxLength: 2 }),
      }),
      source: rec({
        setting: fc.constantFrom('auto', 'nodes', 'controller'),
        active: fc.constantFrom('controller', 'nodes', null),
        message: nullableText,
      }),
      alertsPausedUntil: fc.constantFrom('until resumed', '2026-12-02T00:00:00Z'),
    },
    {
      requiredKeys: ['context', 'server', 'connection', 'inventory', 'stale', 'history', 'writeback'],
    },
  ) as fc.Arbitrary<ContextSnapshot>;

const snapshot: fc.Arbitrary<FleetSnapshot> = rec({
  contexts: fc.oneof(
    { weight: 5, arbitrary: fc.uniqueArray(context(name), { selector: (c) => c.context, maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(context(name), { maxLength: 3 }) },
  ),
  focused: fc.option(name, { nil: null }),
  alertsPausedUntil: fc.option(fc.constantFrom('until resumed', '2026-12-02T00:00:00Z'), { nil: null }),
  health: fc.constantFrom('unreachable', 'down', 'all-ready'),
  generatedAt: fc.constantFrom('2026-12-01T00:00:00Z', '2026-12-01T00:00:05Z'),
});

/** b as a small edit of a (shared objects where unchanged, as the engine makes them), or any b. */
const pair: fc.Arbitrary<[FleetSnapshot, FleetSnapshot]> = fc.oneof(
  fc.tuple(snapshot, snapshot),
  fc
    .tuple(
      snapshot,
      fc.array(
        fc.tuple(fc.nat(), fc.nat(), entry(name), fc.constantFrom('replace', 'drop', 'insert', 'swap')),
        {
          maxLength: 4,
        },
      ),
    )
    .map(([a, edits]): [FleetSnapshot, FleetSnapshot] => {
      const contexts = a.contexts.map((c) => ({ ...c }));
      for (const [ci, ni, e, kind] of edits) {
        const c = contexts[ci % Math.max(1, contexts.length)];
        if (!c?.inventory) continue;
        const list = [...c.inventory.nodes];
        const i = ni % Math.max(1, list.length);
        if (kind === 'replace' && list[i]) list[i] = { ...e, name: list[i].name };
        else if (kind === 'drop') list.splice(i, 1);
        else if (kind === 'insert') list.splice(i, 0, e);
        else if (list.length > 1) [list[0], list[i]] = [list[i] as GpuNodeEntry, list[0] as GpuNodeEntry];
        c.inventory = { ...c.inventory, nodes: list, ready_gpu_nodes: list.filter((n) => n.ready).length };
      }
      return [a, { ...a, contexts, generatedAt: '2026-12-01T00:00:09Z' }];
    }),
);

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('diffSnapshots / applyDelta', () => {
  it('applyDelta(a, diffSnapshots(a, b)) equals b', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(applyDelta(a, diffSnapshots(a, b))).toStrictEqual(b);
      }),
      RUNS,
    );
  });

  it('holds over the wire: both snapshots and the delta through JSON', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const delta = json(diffSnapshots(a, b));
        expect(applyDelta(json(a), delta)).toStrictEqual(json(b));
      }),
      RUNS,
    );
  });

  it('is empty for a snapshot and itself, or a copy of it', () => {
    fc.assert(
      fc.property(snapshot, (a) => {
        expect(diffSnapshots(a, a)).toEqual({});
        expect(diffSnapshots(a, json(a))).toEqual({});
        expect(isEmptyDelta(diffSnapshots(a, { ...a, generatedAt: 'later' }))).toBe(true);
      }),
      RUNS,
    );
  });

  it("shares a's entries the delta leaves alone", () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const out = applyDelta(a, diffSnapshots(a, b));
        const unique = (s: FleetSnapshot) =>
          new Set(s.contexts.map((c) => c.context)).size === s.contexts.length;
        if (!unique(a) || !unique(b)) return;
        for (const c of out.contexts) {
          const before = a.contexts.filter((x) => x.context === c.context);
          const after = b.contexts.filter((x) => x.context === c.context);
          if (before.length !== 1 || after.length !== 1) continue;
          const [prev, next] = [before[0] as ContextSnapshot, after[0] as ContextSnapshot];
          if (JSON.stringify(prev) === JSON.stringify(next)) expect(c).toBe(prev);
          const prevNodes = prev.inventory?.nodes ?? [];
          if (new Set(prevNodes.map((n) => n.name)).size !== prevNodes.length) continue;
          if (new Set(next.inventory?.nodes.map((n) => n.name)).size !== next.inventory?.nodes.length)
            continue;
          for (const n of c.inventory?.nodes ?? []) {
            const old = prevNodes.find((p) => p.name === n.name);
            if (old && JSON.stringify(old) === JSON.stringify(n) && prev.inventory && c.inventory !== null)
              expect(n).toBe(old);
          }
        }
      }),
      RUNS,
    );
  });
});
