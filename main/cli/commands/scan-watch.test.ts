/** The CLI against the simulator over real HTTPS: the acceptance checks of the engine issue. */
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
  kubeconfig = path.join(mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-cli-')), 'config');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(() => sim?.close());

describe('gpu-fleet scan', () => {
  it('-o json prints exactly the status object of the homelab', async () => {
    const { code, stdout } = await runCliOnce(['scan', '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(code).toBe(0);
    const status = JSON.parse(stdout);
    expect(Object.keys(status)).toEqual([
      'observed_at',
      'total_gpu_nodes',
      'ready_gpu_nodes',
      'total_gpus',
      'nodes',
    ]);
    expect(status).toMatchObject({ total_gpu_nodes: 4, ready_gpu_nodes: 0, total_gpus: 1 });
    expect(
      status.nodes.map((n: { name: string; product: string | null; count: number; workload: string }) => [
        n.name,
        n.product,
        n.count,
        n.workload,
      ]),
    ).toEqual([
      ['nuc1', 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED', 1, 'vm-passthrough'],
      ['nuc2', null, 0, 'vm-passthrough'],
      ['omen', null, 0, 'vm-passthrough'],
      ['omen2', null, 0, 'container'],
    ]);
    expect(Number.isNaN(Date.parse(status.observed_at))).toBe(false);
  });

  it('-o table prints the SPEC example layout with <unlabeled>', async () => {
    const { code, stdout } = await runCliOnce(['scan', '--kubeconfig', kubeconfig]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('total_gpu_nodes: 4   ready_gpu_nodes: 0   total_gpus: 1');
    expect(lines[1]).toMatch(/^NAME\s+READY\s+PRODUCT\s+GPUS\s+MEMORY\s+WORKLOAD$/);
    expect(lines.slice(2).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      // kubectl's words, as the window shows them: Unknown where the kubelet stopped reporting.
      ['nuc1', 'Unknown', 'NVIDIA-GeForce-RTX-4070-Laptop-GPU-SHARED'],
      ['nuc2', 'Unknown', '<unlabeled>'],
      ['omen', 'Unknown', '<unlabeled>'],
      ['omen2', 'NotReady', '<unlabeled>'],
    ]);
  });

  it('--all-contexts -o json reports each context, and the read-only one can list nodes', async () => {
    const { code, stdout } = await runCliOnce([
      'scan',
      '--kubeconfig',
      kubeconfig,
      '--all-contexts',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as {
      contexts: { context: string; inventory: { total_gpu_nodes: number } }[];
    };
    expect(doc.contexts.map((c) => [c.context, c.inventory.total_gpu_nodes])).toEqual([
      ['sim-admin', 4],
      ['sim-readonly', 4],
      ['sim-revocable', 4],
      ['sim-nodesonly', 4],
    ]);
  });

  it('says which context does not exist, in one sentence, with a non-zero exit', async () => {
    const { code, stderr, stdout } = await runCliOnce([
      'scan',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'nope',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    // The same sentence as use-context's for the same mistake.
    expect(stderr).toBe(`error: There is no context named "nope" in the kubeconfig (${kubeconfig}).\n`);
  });

  it('rejects an unknown output format like kubectl', async () => {
    const { code, stderr } = await runCliOnce(['scan', '--kubeconfig', kubeconfig, '-o', 'xml']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/allowed formats are: table,wide,json,yaml/);
  });
});

describe('gpu-fleet watch -o json', () => {
  it('prints one inventory line with ready_gpu_nodes 1 after the sim marks nuc1 Ready', async () => {
    const run = startCli(['watch', '--kubeconfig', kubeconfig, '-o', 'json', '--hold-down', '0s']);
    const parsed = () =>
      run.lines().map((l) => JSON.parse(l) as { type: string; ready_gpu_nodes?: number; phase?: string });
    await expect
      .poll(() => parsed().some((l) => l.type === 'connection' && l.phase === 'live'), { timeout: 10_000 })
      .toBe(true);
    const before = parsed().filter((l) => l.type === 'inventory');
    expect(before.map((l) => l.ready_gpu_nodes)).toEqual([0]);
    sim.control.setNodeReady('nuc1', 'True');
    await expect
      .poll(() => parsed().filter((l) => l.type === 'inventory').length, { timeout: 2000, interval: 20 })
      .toBe(2);
    expect(parsed().filter((l) => l.type === 'inventory')[1]?.ready_gpu_nodes).toBe(1);
    run.stop();
    expect(await run.exit).toBe(0);
    sim.control.setNodeReady('nuc1', 'Unknown', 'NodeStatusUnknown');
  });
});

describe('gpu-fleet contexts', () => {
  it('lists the contexts kubectl-style; the current one is monitored by default', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-cfg-'));
    const { code, stdout } = await runCliOnce(['contexts', '--kubeconfig', kubeconfig], {
      GPU_FLEET_CONFIG_DIR: dir,
    });
    expect(code).toBe(0);
    const rows = stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    expect(rows[0]).toEqual(['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE', 'MONITORED']);
    expect(rows.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
      ['*', 'yes'],
      ['sim-readonly', 'no'],
      ['sim-revocable', 'no'],
      ['sim-nodesonly', 'no'],
    ]);
  });
});

describe('gpu-fleet watch -v', () => {
  it('logs structured lines to stderr, with no credential in them', async () => {
    const run = startCli(['watch', '--kubeconfig', kubeconfig, '-o', 'json', '-v']);
    await expect.poll(() => run.stderr().includes('"msg":"connection"'), { timeout: 10_000 }).toBe(true);
    run.stop();
    await run.exit;
    const entry = JSON.parse(run.stderr().split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'info',
      component: 'engine',
      msg: 'connection',
      context: 'sim-admin',
    });
    expect(run.stderr()).not.toContain(sim.tokens.admin);
  });
});

describe('gpu-fleet watch (table)', () => {
  it('says "connecting" once at the start, then "live"', async () => {
    const run = startCli(['watch', '--kubeconfig', kubeconfig]);
    await expect.poll(() => /: live$/m.test(run.stdout()), { timeout: 10_000 }).toBe(true);
    run.stop();
    expect(await run.exit).toBe(0);
    const phases = run
      .lines()
      .map((l) => /^\d\d:\d\d:\d\d sim-admin: (connecting|live)\b/.exec(l)?.[1])
      .filter((p) => p !== undefined);
    expect(phases).toEqual(['connecting', 'live']);
  });
});
