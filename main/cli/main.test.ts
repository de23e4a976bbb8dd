/**
 * The CLI's own error sentences, each said once and in kubectl's words: a mistyped command gets a
 * "Did you mean", a flag without its value says so, a missing kubeconfig points at `sim`, and a
 * kubeconfig others can read is warned about in a sentence that survives the redaction.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { runCliOnce } from '../../test/helpers/cli-harness.ts';

let dir: string;
let sim: RunningSim;
let kubeconfig: string;
beforeAll(async () => {
  // A short name: a long mixed-case path part reads as a token to the redaction (log/redact.ts).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-e-'));
  sim = await startSim({ scenario: 'homelab' });
  kubeconfig = path.join(dir, 'config');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('gpu-fleet errors', () => {
  it('a mistyped command: "Did you mean this?" with the close commands, as kubectl', async () => {
    const r = await runCliOnce(['scna']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: unknown command "scna" for "gpu-fleet"\n\nDid you mean this?\n\tscan\n\nRun \'gpu-fleet --help\' for usage.\n',
    );
    const far = await runCliOnce(['frobnicate']);
    expect(far.stderr).toBe(
      'error: unknown command "frobnicate" for "gpu-fleet"\nRun \'gpu-fleet --help\' for usage.\n',
    );
  });

  it('--context without a value: kubectl\'s "flag needs an argument", not Node\'s words', async () => {
    const r = await runCliOnce(['scan', '--kubeconfig', kubeconfig, '--context']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: flag needs an argument: --context\nSee 'gpu-fleet scan --help' for usage.\n",
    );
    const short = await runCliOnce(['scan', '--kubeconfig', kubeconfig, '-o']);
    expect(short.stderr.split('\n')[0]).toBe('error: flag needs an argument: --output');
  });

  it('no kubeconfig at all: one sentence, pointing at `gpu-fleet sim`', async () => {
    const missing = path.join(dir, 'no-such-config');
    const r = await runCliOnce(['scan'], { KUBECONFIG: missing });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `error: No kubeconfig found (looked at ${missing}); to try the CLI, run 'gpu-fleet sim' in another terminal and use the kubeconfig it prints.`,
    );
  });

  it('a kubeconfig others can read: the warning keeps its words ("run chmod 600")', async () => {
    const open = path.join(dir, 'open-config');
    fs.copyFileSync(kubeconfig, open);
    fs.chmodSync(open, 0o644);
    const r = await runCliOnce(['scan', '--kubeconfig', open, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: ${open} can be read by other users (mode 644); it holds credentials: run chmod 600 on it.\n`,
    );
  });
});
