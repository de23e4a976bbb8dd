/**
 * A quiet, healthy cluster prints nothing but its first lines: the engine on virtual time against the
 * simulator (which, like a real API server, sends no bookmark while nothing moves), its events printed as
 * `watch -o json` prints them. 30 silent minutes, then a connection that goes half-open: no connection
 * line after the first `live`, no stale inventory, no alert.
 */
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../../common/alert-rules.ts';
import { ManualClock } from '../../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';
import { FleetEngine } from '../../fleet/engine.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { eventLine } from './watch.ts';

let sim: SimContext | null = null;
let engine: FleetEngine | null = null;
afterEach(async () => {
  engine?.stop();
  engine = null;
  await sim?.cleanup();
  sim = null;
});

interface Line {
  type: string;
  phase?: string;
  stale?: boolean;
}

it('30 quiet minutes and a half-open connection: `watch -o json` prints no connection line after live', async () => {
  sim = await startSimContext({ scenario: 'homelab' });
  const clock = new ManualClock();
  // Request timers only a request that is never answered reaches: this machine's speed decides nothing.
  const e = new FleetEngine({
    clock,
    rules: DEFAULT_ALERT_RULES,
    makeClient: (ctx) => new ContextClient(ctx, { clock, requestTimeoutMs: 3_600_000 }),
    watcher: { probeTimeoutMs: 3_600_000 },
  });
  engine = e;
  const lines: Line[] = [];
  e.on((ev) => {
    const l = eventLine(ev);
    if (l !== null) lines.push(JSON.parse(l) as Line);
  });
  e.setContexts([sim.context('sim-admin')]);
  const phase = () => e.snapshot().contexts[0]?.connection.phase;
  await pollUntil(() => phase() === 'live', 'live', { each: () => clock.advance(0) });
  const start = lines.length;
  const pass = async (ms: number) => {
    for (let t = 0; t < ms; t += 2000) {
      clock.advance(2000);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  await pass(30 * 60_000);
  const probes = () => sim?.sim.control.requestLog().filter((r) => r.path === '/api/v1/nodes?limit=1') ?? [];
  expect(probes().length).toBeGreaterThanOrEqual(15);

  const before = probes().length;
  sim.sim.control.halfOpenConnections();
  sim.sim.control.setNodeLabels('nuc1', { 'nvidia.com/gpu.count': '2' });
  await pass(100_000);
  await pollUntil(() => (e.snapshot().contexts[0]?.inventory?.total_gpus ?? 0) > 1, 'the change', {
    each: () => clock.advance(0),
  });
  expect(probes().length).toBeGreaterThan(before);

  const after = lines.slice(start);
  expect(after.filter((l) => l.type === 'connection')).toEqual([]);
  expect(after.filter((l) => l.type === 'alert')).toEqual([]);
  expect(after.filter((l) => l.type === 'inventory' && l.stale)).toEqual([]);
  expect(lines.filter((l) => l.type === 'connection').map((l) => l.phase)).toEqual(['connecting', 'live']);
}, 60_000);
