/**
 * Fault matrix, exec credential plugins: one that is not installed, one that fails, and one that starts
 * failing when the token it gave expires while running (the last inventory is kept, marked stale).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allReady, expectCalm, startRun } from './harness.ts';
import { contextFor, execPlugin } from './kubeconfig.ts';
import { ca, checkRefused, homelab, type Refused } from './refused.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

const REFUSED: Refused[] = [
  {
    fault: 'an exec credential plugin that is not installed',
    context: (s) =>
      contextFor(s.dir, ca(s), {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: 'gpu-fleet-test-no-such-plugin',
          installHint: 'Install it from your cloud.',
        },
      }),
    phase: 'config-error',
    message:
      /^exec plugin "gpu-fleet-test-no-such-plugin" was not found in PATH or the usual install folders\. Install it from your cloud\.$/,
    retries: false,
  },
  {
    fault: 'an exec credential plugin that fails',
    context: (s) =>
      contextFor(s.dir, ca(s), {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: execPlugin(
            s.dir,
            `process.stderr.write('error: token expired, run my-cloud login\\n'); process.exit(1);`,
          ),
        },
      }),
    phase: 'config-error',
    message: /^exec plugin "plugin\.sh" failed: error: token expired, run my-cloud login$/,
    retries: false,
  },
];

describe('exec plugins that cannot give credentials: config-error in their own words', () => {
  it.each(REFUSED)('$fault → $phase', (f) => checkRefused(f, cleanup));
});

describe('credentials that expire while running', () => {
  it('a token refreshed by an exec plugin that starts failing: config-error in its words, the inventory kept', async () => {
    const s = await homelab(cleanup);
    allReady(s.sim);
    const mode = path.join(s.dir, 'mode');
    fs.writeFileSync(mode, 'ok');
    const cred = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: s.sim.tokens.revocable },
    });
    const plugin = execPlugin(
      s.dir,
      `import fs from 'node:fs';
       if (fs.readFileSync(${JSON.stringify(mode)}, 'utf8') === 'ok') console.log(${JSON.stringify(cred)});
       else { process.stderr.write('error: refresh token revoked\\n'); process.exit(1); }`,
    );
    const run = startRun([
      contextFor(s.dir, ca(s), { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin } }),
    ]);
    cleanup(() => run.stop());
    const before = await run.live();
    fs.writeFileSync(mode, 'fail');
    s.sim.control.revokeToken('revocable');
    await s.sim.control.restart();
    await run.waitForPhase('config-error');
    expect(run.ctx().connection.message).toBe('exec plugin "plugin.sh" failed: error: refresh token revoked');
    await expectCalm(run, before);
  });
});
