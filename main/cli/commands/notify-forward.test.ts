/**
 * `gpu-fleet notify test` and `gpu-fleet watch --forward` against the fake ntfy server and the sim:
 * secrets only from 0600 regular files, refusals in one sentence, and the planted token in no output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NtfyFake } from '../../../test/fakes/ntfy-fake.ts';
import { runCliOnce, startCli } from '../../../test/helpers/cli-harness.ts';
import { type SimContext, startSimContext } from '../../../test/helpers/sim-context.ts';

const TOKEN = 'tk_plantedplantedplantedplanted1';
let ntfy: NtfyFake;
let dir: string;
let tokenFile: string;

beforeEach(async () => {
  ntfy = await NtfyFake.start({
    now: () => Date.now(),
    users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-notify-'));
  tokenFile = path.join(dir, 'token');
  fs.writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
});
afterEach(async () => {
  await ntfy.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('gpu-fleet notify test', () => {
  it('sends one test message with the token from a 0600 file', async () => {
    const out = await runCliOnce([
      'notify',
      'test',
      `ntfy=${ntfy.url}/gpu-alerts`,
      '--forward-token-file',
      tokenFile,
    ]);
    expect([out.code, out.stdout]).toEqual([0, `ntfy ${ntfy.url}: test message delivered.\n`]);
    expect(ntfy.messages('gpu-alerts').map((m) => m.title)).toEqual(['GPU Fleet: test message']);
    expect(ntfy.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('says 403 in one sentence and exits 1', async () => {
    const out = await runCliOnce([
      'notify',
      'test',
      `ntfy=${ntfy.url}/other`,
      '--forward-token-file',
      tokenFile,
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `ntfy ${ntfy.url}: 403 forbidden — check the token or password, and that it may write to this topic\n`,
    );
  });

  it.each([
    [
      'readable by others',
      (f: string) => fs.chmodSync(f, 0o644),
      'may be read by others (mode 0644); run: chmod 600',
    ],
    [
      'a symlink',
      (f: string) => {
        fs.renameSync(f, `${f}.real`);
        fs.symlinkSync(`${f}.real`, f);
      },
      'is not a regular file',
    ],
    ['missing', (f: string) => fs.rmSync(f), 'cannot be read (ENOENT)'],
  ])('refuses a token file that is %s, without a byte of it', async (_name, spoil, words) => {
    spoil(tokenFile);
    const out = await runCliOnce([
      'notify',
      'test',
      `ntfy=${ntfy.url}/gpu-alerts`,
      '--forward-token-file',
      tokenFile,
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(words);
    expect(out.stderr + out.stdout).not.toContain(TOKEN);
    expect(ntfy.seen).toEqual([]);
  });

  it('refuses an unknown kind and a bad ntfy URL before sending anything', async () => {
    const kind = await runCliOnce(['notify', 'test', 'pager=http://127.0.0.1:1/x']);
    expect(kind.stderr).toContain('KIND one of ntfy, webhook, slack, discord');
    const topic = await runCliOnce(['notify', 'test', `ntfy=${ntfy.url}/`]);
    expect(topic.stderr).toContain('must end in a topic');
  });
});

describe('gpu-fleet watch --forward', () => {
  let sc: SimContext;
  beforeAll(async () => {
    sc = await startSimContext({ scenario: 'homelab' });
    sc.sim.control.setNodeReady('nuc2', 'True');
  });
  afterAll(async () => {
    await sc?.cleanup();
  });

  it('forwards the drop the watch alerts on, once, and prints the delivery', async () => {
    const run = startCli(
      [
        'watch',
        '--kubeconfig',
        sc.kubeconfigPath,
        '-o',
        'json',
        '--hold-down',
        '0s',
        '--forward',
        `ntfy=${ntfy.url}/gpu-alerts`,
        '--forward-token-file',
        tokenFile,
      ],
      { GPU_FLEET_CONFIG_DIR: dir },
    );
    const lines = () =>
      run.lines().map((l) => JSON.parse(l) as { type: string; phase?: string; outcome?: string });
    await expect
      .poll(() => lines().some((l) => l.type === 'connection' && l.phase === 'live'), { timeout: 10_000 })
      .toBe(true);
    sc.sim.control.setNodeReady('nuc2', 'False', 'KubeletNotReady', 'PLEG is not healthy');
    await expect
      .poll(() => lines().some((l) => l.type === 'forward' && l.outcome === 'delivered'), { timeout: 10_000 })
      .toBe(true);
    run.stop();
    expect(await run.exit).toBe(0);
    const [m] = ntfy.messages('gpu-alerts');
    expect(ntfy.messages()).toHaveLength(1);
    expect(m?.message).toContain('nuc2');
    expect(m?.message).toContain('PLEG is not healthy');
    expect(run.stdout() + run.stderr()).not.toContain(TOKEN);
    const queueFile = fs.readFileSync(path.join(dir, 'forward-queue-cli.json'), 'utf8');
    expect(JSON.parse(queueFile)).toEqual({ version: 1, queues: {} });
  });
});
