/**
 * Fault matrix, files the user did not mean to lose: `gpu-fleet sim --kubeconfig-out F` could name
 * `~/.kube/config`, so an existing file is refused in one sentence (and left as it was) unless --force.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliOnce, startCli } from '../helpers/cli-harness.ts';
import { tempDir } from './kubeconfig.ts';

/** Runs `gpu-fleet sim` until it prints its URL, then stops it. */
async function simUntilListening(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = startCli(['sim', ...args]);
  const started = new Promise<void>((resolve) => {
    const t = setInterval(() => {
      if (run.stdout().includes('listening on')) {
        clearInterval(t);
        resolve();
      }
    }, 10);
    const ended = () => {
      clearInterval(t);
      resolve();
    };
    run.exit.then(ended, ended);
  });
  await started;
  run.stop();
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('sim --kubeconfig-out', () => {
  it('refuses an existing file and leaves it untouched', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, 'my real kubeconfig\n');
    const r = await runCliOnce(['sim', '--kubeconfig-out', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${file} already exists; choose a new file for --kubeconfig-out, or add --force to overwrite it\n`,
    );
    expect(r.stdout).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe('my real kubeconfig\n');
  });

  it('writes a new file, private to the user', async () => {
    const file = path.join(tempDir(), 'new-config');
    const r = await simUntilListening(['--kubeconfig-out', file]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toContain('gpu-fleet-sim');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });

  it('overwrites with --force, and makes the file private', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, `${'old '.repeat(5000)}\n`, { mode: 0o644 });
    const r = await simUntilListening(['--kubeconfig-out', file, '--force']);
    expect(r.code).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('gpu-fleet-sim');
    expect(text).not.toContain('old ');
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });

  it('with --force, a simulator that cannot start leaves the old file as it was', async () => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, 'my real kubeconfig\n');
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as net.AddressInfo).port;
      const r = await runCliOnce(['sim', '--kubeconfig-out', file, '--force', '--port', String(port)]);
      expect(r.code).not.toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe('my real kubeconfig\n');
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });
});

describe('sim says where its kubeconfig is and what to run next', () => {
  it('without --kubeconfig-out: a private file, named with the commands to try, removed on Ctrl-C', async () => {
    const r = await simUntilListening([]);
    expect(r.code).toBe(0);
    const m =
      /^Kubeconfig written to (\S+) \(contexts sim-admin, sim-readonly, sim-revocable, sim-nodesonly\)\.$/m.exec(
        r.stdout,
      );
    const file = m?.[1] ?? '';
    expect(file).not.toBe('');
    expect(r.stdout).toContain(`  npx gpu-fleet scan --kubeconfig ${file}\n`);
    expect(r.stdout).toContain(`  npx gpu-fleet watch --kubeconfig ${file}\n`);
    expect(r.stdout).toContain('Ctrl-C stops the simulator and removes that file.\n');
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('with --kubeconfig-out: that file, kept', async () => {
    const file = path.join(tempDir(), 'sim-config');
    const r = await simUntilListening(['--kubeconfig-out', file]);
    expect(r.stdout).toContain(`Kubeconfig written to ${file} (contexts`);
    expect(r.stdout).toContain('Ctrl-C stops the simulator.\n');
    expect(fs.existsSync(file)).toBe(true);
  });
});
