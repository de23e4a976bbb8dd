/** `gpu-fleet crd --install` and `gpu-fleet watch --write-back` against the simulator over real HTTPS. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSim, startSim } from '../../../sim/index.ts';
import { runCliOnce, startCli } from '../../../test/helpers/cli-harness.ts';

let sim: RunningSim;
let kubeconfig: string;

beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-wb-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(() => sim?.close());

interface Line {
  type: string;
  target?: string;
  action?: string;
  reason?: string;
  ready_gpu_nodes?: number;
}

function watch(...extra: string[]) {
  const run = startCli([
    'watch',
    '--kubeconfig',
    kubeconfig,
    '-o',
    'json',
    '--write-back',
    '--write-interval',
    '0s',
    ...extra,
  ]);
  const lines = () => run.lines().map((l) => JSON.parse(l) as Line);
  const writes = () => lines().filter((l) => l.type === 'write');
  return { run, lines, writes };
}

const patches = () => sim.control.requestLog().filter((r) => r.method === 'PATCH');

describe('gpu-fleet crd --install', () => {
  it('installs the CRD and the cluster object, then finds them unchanged', async () => {
    const first = await runCliOnce(['crd', '--install', '--kubeconfig', kubeconfig]);
    expect([first.code, first.stdout]).toEqual([
      0,
      'customresourcedefinition.apiextensions.k8s.io/gpuinventories.gpufleet.io created\ngpuinventory.gpufleet.io/cluster created\n',
    ]);
    const again = await runCliOnce(['crd', '--install', '--kubeconfig', kubeconfig]);
    expect(again.stdout).toMatch(
      /unchanged \(already installed with the same shape\)\n.*cluster unchanged\n$/,
    );
  });

  it('says in one sentence what the read-only user may not do', async () => {
    const r = await runCliOnce(['crd', '--install', '--kubeconfig', kubeconfig, '--context', 'sim-readonly']);
    expect([r.code, r.stderr]).toEqual([
      1,
      'error: Not allowed to create customresourcedefinitions in API group "apiextensions.k8s.io" at the cluster scope.\n',
    ]);
  });
});

describe('gpu-fleet watch --write-back -o json', () => {
  it('prints a write line per target, one more pair per node flip, and skips after a restart', async () => {
    sim.control.resetRequestLog();
    const w = watch();
    await expect.poll(() => w.writes().length, { timeout: 10_000, interval: 10 }).toBe(2);
    expect(
      w
        .writes()
        .map((l) => [l.target, l.action])
        .sort(),
    ).toEqual([
      ['configmap', 'written'],
      ['status', 'written'],
    ]);
    sim.control.setNodeReady('nuc1', 'True');
    await expect.poll(() => w.writes().length, { timeout: 10_000, interval: 10 }).toBe(4);
    expect(
      w
        .writes()
        .slice(2)
        .map((l) => l.action),
    ).toEqual(['written', 'written']);
    expect(patches()).toHaveLength(4);
    w.run.stop();
    expect(await w.run.exit).toBe(0);

    sim.control.resetRequestLog();
    const again = watch();
    await expect.poll(() => again.writes().length, { timeout: 10_000, interval: 10 }).toBe(2);
    expect(again.writes().map((l) => [l.action, l.reason])).toEqual([
      ['skipped', 'no change'],
      ['skipped', 'no change'],
    ]);
    expect(patches()).toEqual([]);
    again.run.stop();
    await again.run.exit;
    sim.control.setNodeReady('nuc1', 'Unknown', 'NodeStatusUnknown');
  });

  it('reports forbidden for the read-only context and keeps monitoring', async () => {
    const w = watch('--context', 'sim-readonly');
    await expect.poll(() => w.writes().length, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(2);
    const reasons = w.writes().map((l) => `${l.action} ${l.reason}`);
    expect(reasons).toContainEqual(
      expect.stringMatching(/^failed The user "sim-readonly" may not get gpuinventories/),
    );
    expect(reasons).toContainEqual(
      expect.stringMatching(/^failed The user "sim-readonly" may not get configmaps/),
    );
    sim.control.setNodeReady('nuc2', 'True');
    await expect
      .poll(() => w.lines().some((l) => l.type === 'inventory' && l.ready_gpu_nodes === 1), {
        timeout: 10_000,
      })
      .toBe(true);
    w.run.stop();
    expect(await w.run.exit).toBe(0);
    sim.control.setNodeReady('nuc2', 'Unknown', 'NodeStatusUnknown');
  });

  it('refuses an invalid group in one sentence', async () => {
    const r = await runCliOnce(['watch', '--kubeconfig', kubeconfig, '--write-back', '--group', 'nodots']);
    expect([r.code, r.stderr]).toEqual([
      1,
      'error: "nodots" is not a valid API group: use a lowercase DNS name with at least one dot, like gpufleet.io\n',
    ]);
  });
});
