/** `gpu-fleet watch -o json`: the alert line of a drop names each node with its reason (against the sim). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../../test/helpers/cli-harness.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
  sc.sim.control.setNodeReady('nuc2', 'True');
  sc.sim.control.setNodeReady('omen', 'True');
});
afterAll(async () => {
  await sc?.cleanup();
});

interface Line {
  type: string;
  phase?: string;
  alert?: string;
  title?: string;
  body?: string;
  nodes?: string[];
  reasons?: { node: string; reason: string }[];
}

describe('gpu-fleet watch -o json alert lines', () => {
  it('name each node of a drop with why it is down', async () => {
    const run = startCli(['watch', '--kubeconfig', sc.kubeconfigPath, '-o', 'json', '--hold-down', '0s']);
    const lines = () => run.lines().map((l) => JSON.parse(l) as Line);
    await expect
      .poll(() => lines().some((l) => l.type === 'connection' && l.phase === 'live'), { timeout: 10_000 })
      .toBe(true);
    sc.sim.control.setNodeReady(
      'nuc2',
      'False',
      'KubeletNotReady',
      'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s',
    );
    sc.sim.control.setNodeReady('omen', 'Unknown');
    await expect
      .poll(
        () =>
          lines()
            .filter((l) => l.type === 'alert' && l.alert === 'ready-drop')
            .flatMap((l) => l.nodes ?? [])
            .sort(),
        {
          timeout: 10_000,
        },
      )
      .toEqual(['nuc2', 'omen']);
    const drops = lines().filter((l) => l.type === 'alert' && l.alert === 'ready-drop');
    const reasons = drops.flatMap((l) => l.reasons ?? []);
    expect(reasons).toContainEqual({ node: 'nuc2', reason: 'NotReady (PLEG is not healthy)' });
    expect(reasons).toContainEqual({ node: 'omen', reason: 'kubelet stopped posting node status' });
    for (const d of drops) for (const n of d.nodes ?? []) expect(d.body).toContain(`${n}: `);
    run.stop();
    expect(await run.exit).toBe(0);
  });
});
