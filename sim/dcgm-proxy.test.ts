/**
 * The demo's telemetry agrees with its nodes: omen2 (NotReady, its container network down) reports an idle
 * GPU, though a GPU pod is still listed on it; once the node is Ready, the pod's GPU is at work.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliOnce } from '../test/helpers/cli-harness.ts';
import { type SimContext, startSimContext } from '../test/helpers/sim-context.ts';

let sc: SimContext;
beforeAll(async () => {
  sc = await startSimContext({ scenario: 'homelab' });
});
afterAll(async () => {
  await sc?.cleanup();
});

const omen2Util = async () => {
  const r = await runCliOnce(['top', '-o', 'json', '--kubeconfig', sc.kubeconfigPath]);
  const doc = JSON.parse(r.stdout) as {
    nodes: { node: string; telemetry: { gpus?: { utilPercent: number | null }[] } }[];
  };
  return doc.nodes.find((n) => n.node === 'omen2')?.telemetry.gpus?.[0]?.utilPercent;
};

it('a NotReady node’s GPU idles; the same GPU works once the node is Ready', async () => {
  expect(await omen2Util()).toBe(0);
  sc.sim.control.setNodeReady('omen2', 'True');
  expect(await omen2Util()).toBeGreaterThanOrEqual(20);
});
