/** The background budget against the sim: ≤ budget scrapes a minute, ≤ 1 per node a minute, round-robin, off when too big. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { driveBackground } from './telemetry-hub.testkit.ts';
import { backgroundEnabled } from './telemetry-hub.ts';

let sc: SimContext;
const nodes = Array.from({ length: 30 }, (_, i) => `gpu-${i}`);

beforeAll(async () => {
  sc = await startSimContext({ scenario: 'empty' });
  for (const name of nodes)
    sc.sim.control.addNode({
      metadata: { name, labels: { 'nvidia.com/gpu.present': 'true', 'nvidia.com/gpu.count': '2' } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
  sc.sim.control.addDcgmExporters(nodes);
});
afterAll(async () => {
  await sc?.cleanup();
});

const scrapes = <T extends { path: string }>(log: T[]) =>
  log.filter((e) => e.path.includes('/proxy/metrics'));

describe('background telemetry', () => {
  it('scrapes at most the budget a minute, each node at most once a minute, round-robin over the nodes', async () => {
    const clock = new ManualClock(Date.now());
    const r = await driveBackground({
      sim: sc.sim,
      context: sc.context('sim-admin'),
      gpuNodes: nodes,
      clock,
      minutes: 3,
      settings: { background: 'on', autoMaxGpuNodes: 200, budgetPerMinute: 20 },
    });
    const s = scrapes(r.log);
    expect(s).toHaveLength(60);
    // 30 nodes at 20 a minute: every node once in the first 90 s, then again, in the same order.
    const names = s.map((e) => /nvidia-dcgm-exporter-(gpu-\d+):/.exec(e.path)?.[1]);
    expect(names.slice(0, 30).sort()).toEqual([...nodes].sort());
    expect(names.slice(30, 60)).toEqual(names.slice(0, 30));
    expect(s.every((e) => e.status === 200)).toBe(true);
    // Discovery: one LIST in gpu-operator (it finds the exporters), none again within its 5 minutes.
    expect(r.log.filter((e) => e.path.startsWith('/api/v1/namespaces/gpu-operator/pods?'))).toHaveLength(1);
  });

  it('with fewer nodes than the budget, no node is scraped twice within 60 s', async () => {
    const clock = new ManualClock(Date.now());
    const few = nodes.slice(0, 5);
    const r = await driveBackground({
      sim: sc.sim,
      context: sc.context('sim-admin'),
      gpuNodes: few,
      clock,
      minutes: 2,
      settings: { background: 'on', autoMaxGpuNodes: 200, budgetPerMinute: 20 },
    });
    expect(scrapes(r.log)).toHaveLength(10);
  });

  it("'auto' is off above autoMaxGpuNodes; 'off' is off; 'on' is on", async () => {
    expect(backgroundEnabled({ background: 'auto', autoMaxGpuNodes: 200, budgetPerMinute: 20 }, 200)).toBe(
      true,
    );
    expect(backgroundEnabled({ background: 'auto', autoMaxGpuNodes: 200, budgetPerMinute: 20 }, 201)).toBe(
      false,
    );
    expect(backgroundEnabled({ background: 'on', autoMaxGpuNodes: 200, budgetPerMinute: 20 }, 5000)).toBe(
      true,
    );
    expect(backgroundEnabled({ background: 'off', autoMaxGpuNodes: 200, budgetPerMinute: 20 }, 1)).toBe(
      false,
    );
    const r = await driveBackground({
      sim: sc.sim,
      context: sc.context('sim-admin'),
      gpuNodes: nodes,
      clock: new ManualClock(Date.now()),
      minutes: 2,
      settings: { background: 'auto', autoMaxGpuNodes: 10, budgetPerMinute: 20 },
    });
    expect(r.log).toEqual([]);
  });
});
