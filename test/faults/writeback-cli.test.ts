/**
 * Fault matrix, write-back from the command line, as a real process: `gpu-fleet crd --install` against a
 * server whose new CRD becomes Established only after a while. The wait is awaited; with a background
 * (unref'd) timer Node's event loop emptied and the process exited 13 with no output.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextClient } from '../../main/kube/context-client.ts';
import { DEFAULT_CRD_GROUP } from '../../main/writeback/crd.ts';
import { startSimContext } from '../helpers/sim-context.ts';
import { useCleanups } from './scope.ts';
import { otherSchemaCrd } from './writeback-sim.ts';

const cleanup = useCleanups();
const BIN = path.resolve(import.meta.dirname, '../../bin/gpu-fleet.mjs');

function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('crd --install as a process', () => {
  it('waits for Established (slow server) and exits 0 with its output', async () => {
    const s = await startSimContext({ scenario: 'empty', crdEstablishDelayMs: 400 });
    cleanup(() => s.cleanup());
    const r = await runBin(['crd', '--install', '--kubeconfig', s.kubeconfigPath, '--context', 'sim-admin']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `customresourcedefinition.apiextensions.k8s.io/gpuinventories.${DEFAULT_CRD_GROUP} created\n`,
    );
    expect(r.stdout).toContain(`gpuinventory.${DEFAULT_CRD_GROUP}/cluster created\n`);
  }, 30_000);

  it('a CRD of that name with another schema: exit 1 with what differs, never "same shape"', async () => {
    const s = await startSimContext({ scenario: 'empty' });
    cleanup(() => s.cleanup());
    const other = otherSchemaCrd();
    const client = new ContextClient(s.context());
    const posted = await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: JSON.stringify(other),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
    client.close();
    expect(posted.status).toBe(201);
    const r = await runBin(['crd', '--install', '--kubeconfig', s.kubeconfigPath, '--context', 'sim-admin']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`The CRD gpuinventories.${DEFAULT_CRD_GROUP} exists but has another shape:`);
    expect(r.stderr).toContain('status.total_gpus is of type string, not integer');
  }, 30_000);
});
