/**
 * Property tests (fast-check) over names and label values from outside: arbitrary DNS-1123 node names
 * (with `constructor`, `valueof`, `tostring` among them), arbitrary context names (with `__proto__`,
 * `toString`, `hasOwnProperty`, `valueOf`), arbitrary label values (any code points, NUL, ESC, lone
 * surrogates), arbitrary strings as node names (only DNS-1123 subdomains are kept). The pure path — node JSON → trimNode → buildInventory → alert policy — never throws and
 * alerts exactly the nodes that dropped; settings validation never throws and write-back is on only for
 * contexts the file opts in with an own `true` (take-over too). Bounded (a few hundred runs, fixed seed): the seed and
 * the shrunk counterexample are printed on failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { takeOverOptedIn, writeBackOptedIn } from '../../common/settings.ts';
import { evaluate, tick } from '../../main/alerts/policy.ts';
import { play, type Step } from '../../main/alerts/scenario.testkit.ts';
import { NO_SNOOZE } from '../../main/alerts/snooze.ts';
import { INITIAL_POLICY_STATE } from '../../main/alerts/types.ts';
import { buildInventory, trimNode } from '../../main/inventory/index.ts';
import { LABEL } from '../../main/inventory/labels.ts';
import type { NodeFacts } from '../../main/inventory/node-facts.ts';
import { migrate } from '../../main/settings/migrations.ts';
import { rawNode } from '../fixtures/nodes.ts';
import { PROTO_NAMES } from './proto-names.ts';

const SEED = 20261201;
const RUNS = { seed: SEED, numRuns: 150 };

const PROTO_KEYS = [...PROTO_NAMES, '__defineGetter__'];

/** DNS-1123 subdomains, with the Object.prototype keys that are valid ones weighted in. */
const nodeName = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('constructor', 'valueof', 'tostring', 'hasownproperty', 'proto') },
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,14}[a-z0-9])?(\.[a-z0-9]{1,6})?$/) },
);
/** Kubeconfig context names are any string. */
const contextName = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
);
const labelValue = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u001b[2J',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    '2.5',
    '00000000000000000001',
  ),
);
const labelKey = fc.oneof(
  fc.constantFrom(...Object.values(LABEL), 'nvidia.com/mig-1g.5gb.count', ...PROTO_KEYS),
  fc.string({ maxLength: 20 }),
);
/** Labels as JSON.parse builds them: `__proto__` is an own key like any other. */
const labels = fc
  .array(fc.tuple(labelKey, labelValue), { maxLength: 8 })
  .map((pairs) => JSON.parse(JSON.stringify(Object.fromEntries(pairs))) as Record<string, string>);

const node = fc.record({ name: nodeName, ready: fc.boolean(), labels });
const fleet = fc.uniqueArray(node, { selector: (n) => n.name, minLength: 1, maxLength: 12 });

function facts(nodes: { name: string; ready: boolean; labels: Record<string, string> }[]): NodeFacts[] {
  return nodes.flatMap((n) => {
    const f = trimNode(
      rawNode({
        name: n.name,
        ready: n.ready ? 'True' : 'False',
        labels: n.labels,
        capacity: { 'nvidia.com/gpu': '1' },
      }),
    );
    return f ? [f] : [];
  });
}

describe('the pure path over hostile names and label values', () => {
  it('inventory: never throws, counts add up, every node is kept by its own name', () => {
    fc.assert(
      fc.property(fleet, (nodes) => {
        const inv = buildInventory(facts(nodes), new Map(), '2026-12-01T00:00:00Z');
        expect(inv.nodes.map((n) => n.name).sort()).toEqual(nodes.map((n) => n.name).sort());
        expect(inv.ready_gpu_nodes).toBe(nodes.filter((n) => n.ready).length);
        expect(JSON.parse(JSON.stringify(inv))).toEqual(inv);
      }),
      RUNS,
    );
  });

  it('inventory → policy: after the hold-down, exactly the nodes that left Ready are alerted', () => {
    fc.assert(
      fc.property(fleet, fc.array(fc.boolean(), { maxLength: 12 }), contextName, (nodes, flips, context) => {
        const before = buildInventory(facts(nodes), new Map(), '2026-12-01T00:00:00Z');
        // Some nodes change readiness, some vanish (a flip array shorter than the fleet drops the rest).
        const after = nodes
          .slice(0, flips.length)
          .map((n, i) => ({ ...n, ready: flips[i] ? !n.ready : n.ready }));
        const later = buildInventory(facts(after), new Map(), '2026-12-01T00:00:10Z');
        const rules = { ...DEFAULT_ALERT_RULES, flapThreshold: 1000 };
        const t0 = Date.UTC(2026, 11, 1);
        const one = evaluate(
          INITIAL_POLICY_STATE,
          { at: t0, context, reachable: true, inventory: before },
          rules,
          NO_SNOOZE,
        );
        const two = evaluate(
          one.state,
          { at: t0 + 10_000, context, reachable: true, inventory: later },
          rules,
          NO_SNOOZE,
        );
        const due = two.nextCheckAt ?? t0 + 10_000;
        const done = tick(two.state, due, rules, NO_SNOOZE);
        const alerted = [...one.alerts, ...two.alerts, ...done.alerts];
        const stillReady = new Set(after.filter((n) => n.ready).map((n) => n.name));
        const lost = nodes.filter((n) => n.ready && !stillReady.has(n.name)).map((n) => n.name);
        const drops = alerted.filter((a) => a.kind === 'ready-drop');
        expect(drops.flatMap((a) => a.nodes).sort()).toEqual(lost.sort());
        for (const a of alerted) expect(a.context).toBe(context);
        expect(Object.keys(done.state.contexts)).toEqual([context]);
      }),
      RUNS,
    );
  });

  it('policy timelines over many contexts: never throws, alerts only known contexts and nodes', () => {
    const spec = fc.dictionary(nodeName, fc.boolean(), { minKeys: 1, maxKeys: 5 });
    const what = fc.oneof(
      { weight: 4, arbitrary: spec },
      { weight: 1, arbitrary: fc.constantFrom('unreachable' as const, 'reconnecting' as const) },
    );
    const timeline = fc.array(fc.tuple(fc.integer({ min: 0, max: 120 }), contextName, what), {
      maxLength: 25,
    });
    fc.assert(
      fc.property(timeline, (raw) => {
        const steps: Step[] = [];
        let t = 0;
        for (const [dt, c, w] of raw) {
          t += dt;
          steps.push([t, c, w] as Step);
        }
        const out = play(steps);
        const contexts = new Set(steps.map((s) => s[1]));
        const names = new Set(steps.flatMap((s) => (typeof s[2] === 'object' ? Object.keys(s[2]) : [])));
        for (const a of out.alerts) {
          expect(contexts.has(a.context)).toBe(true);
          for (const n of a.nodes) expect(names.has(n)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

describe('node names from a server that is not Kubernetes', () => {
  /** Any string, with hostile characters (ESC, newline, bidi override, upper case) weighted in. */
  const anyName = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc
      .tuple(nodeName, fc.constantFrom('\u001b[2J', '\n', '\u202e', 'A', ' ', '_', '..', ''), nodeName)
      .map(([a, bad, b]) => `${a}${bad}${b}`),
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
  const DIRTY = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

  it('trimNode keeps exactly the DNS-1123 subdomain names, unchanged and clean', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const f = trimNode(rawNode({ name, capacity: { 'nvidia.com/gpu': '1' } }));
        expect(f !== null).toBe(name.length <= 253 && DNS1123.test(name));
        if (f) expect(f.name).not.toMatch(DIRTY);
      }),
      RUNS,
    );
  });
});

describe('settings files with hostile names', () => {
  const writeBack = fc
    .array(
      fc.tuple(contextName, fc.oneof(fc.boolean(), fc.constant('yes'), fc.constant(1), fc.constant(null))),
      { maxLength: 6 },
    )
    .map((pairs) => JSON.stringify(Object.fromEntries(pairs)));
  const extra = fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 })), {
    maxLength: 2,
  });

  it('never throws, and write-back is on only where the file says an own true', () => {
    fc.assert(
      fc.property(writeBack, extra, fc.array(contextName, { maxLength: 5 }), (wb, top, asked) => {
        const extraText = top.map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('');
        const text = `{"version":2,"contexts":[],"writeBack":${wb},"writeBackTakeOver":${wb}${extraText}}`;
        const raw: unknown = JSON.parse(text);
        const result = migrate(raw);
        const onDisk = JSON.parse(wb) as Record<string, unknown>;
        if (top.length > 0) expect(result.ok).toBe(false); // unknown top-level keys are refused
        if (!result.ok) return;
        for (const name of [...asked, ...PROTO_KEYS, ...Object.keys(onDisk)]) {
          const optedIn = Object.hasOwn(onDisk, name) && onDisk[name] === true;
          expect(writeBackOptedIn(result.settings.writeBack, name)).toBe(optedIn);
          expect(takeOverOptedIn(result.settings.writeBackTakeOver, name)).toBe(optedIn);
        }
      }),
      RUNS,
    );
  });
});
