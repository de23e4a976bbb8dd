// Exec plugins as processes: one that exits 0 while a child it started still holds its stdout is done
// when it exits (its answer is taken, the child ended with it); one that hangs is named when a request
// gives up waiting, not the API server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { ContextClient } from './context-client.ts';
import { ExecCredentialSource } from './exec-credential.ts';
import type { ExecSpec, ResolvedContext } from './kubeconfig-types.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function plugin(script: string): { dir: string; spec: ExecSpec } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-exec-'));
  dirs.push(dir);
  const command = path.join(dir, 'plugin.sh');
  fs.writeFileSync(command, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return {
    dir,
    spec: {
      command,
      args: [],
      env: [],
      apiVersion: 'client.authentication.k8s.io/v1',
      interactiveMode: 'Never',
      provideClusterInfo: false,
      installHint: null,
    },
  };
}

const CREDENTIAL =
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t0k"}}';
const tick = () => new Promise((r) => setTimeout(r, 10));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(process.platform === 'win32')('exec plugins as processes', () => {
  it('exits 0 while a child holds its stdout: its credential is taken at once, and the child is ended', async () => {
    const { dir, spec } = plugin(
      `echo '${CREDENTIAL}'\nsleep 300 &\necho $! > "${'$'}(dirname "$0")/child.pid"\nexit 0`,
    );
    const clock = new ManualClock();
    const start = clock.now();
    const source = new ExecCredentialSource(spec, { clock, timeoutMs: 60_000 });
    let got: string | null | undefined;
    const pending = source.get().then((c) => {
      got = c.token;
    });
    // Virtual time moves past the short wait for the pipes after the plugin's exit; never near 60 s.
    for (let i = 0; i < 1000 && got === undefined; i++) {
      clock.advance(20);
      await tick();
    }
    await pending;
    // Before the plugin's timeout (60 s): the old reader waited for the pipe, i.e. for the child.
    expect(got).toBe('t0k');
    expect(clock.now() - start).toBeLessThan(60_000);
    const child = Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf8'));
    for (let i = 0; i < 500 && alive(child); i++) await tick();
    expect(alive(child)).toBe(false);
  });

  it('a request waiting on a hanging plugin says the plugin did not answer, not the API server', async () => {
    const { spec } = plugin('sleep 300');
    const clock = new ManualClock();
    const ctx: ResolvedContext = {
      name: 'c',
      clusterName: 'c',
      userName: 'u',
      namespace: null,
      cluster: { cluster: { name: 'c', server: 'https://127.0.0.1:9', skipTLSVerify: true }, file: 'k' },
      user: { user: { name: 'u' }, exec: spec, file: 'k' },
      file: 'k',
    };
    const client = new ContextClient(ctx, { clock, requestTimeoutMs: 5_000, execTimeoutMs: 60_000 });
    try {
      const req = client.request('GET', '/api/v1/nodes');
      const settled = req.then(
        () => 'answered',
        (e: Error) => e.message,
      );
      await tick();
      clock.advance(5_000);
      expect(await settled).toBe('exec plugin "plugin.sh" did not answer in time.');
    } finally {
      client.close();
      clock.advance(60_000);
    }
  });
});
