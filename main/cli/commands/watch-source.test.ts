/** `gpu-fleet watch --source` against the sim over real HTTPS: the JSON source field, and a bad flag as one sentence. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSim, startSim } from '../../../sim/index.ts';
import { runCliOnce, startCli } from '../../../test/helpers/cli-harness.ts';
import { LeaderStandIn } from '../../../test/helpers/controller-writer.ts';
import { ContextClient } from '../../kube/context-client.ts';
import { findContext, loadKubeconfig } from '../../kube/kubeconfig.ts';

let sim: RunningSim;
let kubeconfig: string;
let writer: ContextClient;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-cli-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
  const load = loadKubeconfig({ explicitPath: kubeconfig });
  const ctx = load.kind === 'loaded' ? findContext(load, 'sim-revocable') : null;
  if (!ctx) throw new Error('no sim-revocable context');
  writer = new ContextClient(ctx);
  const leader = new LeaderStandIn(writer);
  // Real time: the CLI runs on the system clock. A fresh Lease for the next 30 s is plenty.
  await leader.setUp(Date.now());
  await leader.writeStatus({
    observed_at: '2026-12-01T12:00:00Z',
    total_gpu_nodes: 4,
    ready_gpu_nodes: 3,
    total_gpus: 4,
    nodes: ['nuc1', 'nuc2', 'omen', 'omen2'].map((name) => ({
      name,
      ready: name !== 'omen2',
      product: null,
      count: 1,
      memory: null,
      workload: 'container',
    })),
  });
});
afterAll(async () => {
  writer?.close();
  await sim?.close();
});

type Line = { type: string; source?: string; ready_gpu_nodes?: number };

async function firstInventory(args: string[]): Promise<Line> {
  const run = startCli(['watch', '--kubeconfig', kubeconfig, '-o', 'json', ...args]);
  const inventory = () =>
    run
      .lines()
      .map((l) => JSON.parse(l) as Line)
      .find((l) => l.type === 'inventory');
  await expect.poll(() => inventory() !== undefined, { timeout: 10_000 }).toBe(true);
  run.stop();
  expect(await run.exit).toBe(0);
  return inventory() as Line;
}

it('prints "source":"controller" from the controller (default auto) and "source":"nodes" with --source nodes', async () => {
  expect(await firstInventory([])).toMatchObject({ source: 'controller', ready_gpu_nodes: 3 });
  // The homelab's own nodes: all four NotReady until the sim says otherwise.
  expect(await firstInventory(['--source', 'nodes'])).toMatchObject({ source: 'nodes', ready_gpu_nodes: 0 });
});

it('says "via in-cluster controller" on the human inventory line', async () => {
  const run = startCli(['watch', '--kubeconfig', kubeconfig]);
  await expect.poll(() => run.stdout().includes('ready GPU nodes'), { timeout: 10_000 }).toBe(true);
  run.stop();
  expect(await run.exit).toBe(0);
  expect(run.stdout()).toMatch(/sim-admin: 3\/4 ready GPU nodes, 4 GPUs \(via in-cluster controller\)/);
});

it('refuses an unknown source or namespace in one sentence', async () => {
  const bad = await runCliOnce(['watch', '--kubeconfig', kubeconfig, '--source', 'cluster\u001b[2J']);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr.trim()).toBe('error: --source must be one of auto, nodes, controller (got "cluster")');
  const ns = await runCliOnce(['watch', '--kubeconfig', kubeconfig, '--controller-namespace', 'Ops']);
  expect(ns.stderr).toContain('"Ops" is not a valid namespace name for --controller-namespace');
});
