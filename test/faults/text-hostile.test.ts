/**
 * Fault matrix, hostile text: an API server (an admission webhook, an authorizer, a kubelet) or an exec
 * plugin writes whatever it likes — escape sequences that clear the screen or retitle the terminal, a
 * fake second line, bidi overrides, secrets, 2 MB of it. Every sink shows it as one clean, redacted,
 * capped line: the CLI's stderr and tables, the log file, the connection message in the engine snapshot,
 * the inventory entry. And a server address with credentials in it is never shown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import { logEngine } from '../../main/fleet/engine-log.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { contextInfos, loadKubeconfig } from '../../main/kube/kubeconfig.ts';
import { Logger } from '../../main/log/logger.ts';
import { RotatingFileSink } from '../../main/log/rotating-file.ts';
import { rawNode } from '../fixtures/nodes.ts';
import { runCliOnce } from '../helpers/cli-harness.ts';
import { type Answer, nodeList, sendJson, startBrokenApi } from './broken-api.ts';
import { startRun } from './harness.ts';
import { caData, contextFor, execPlugin, loadContext, tempDir, writeKubeconfig } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

const SECRET = 'SeCrEt123abcXYZ';
/** What a hostile admission webhook or authorizer answers with: 2 MB of it. */
const HOSTILE =
  '\u001b[2J\u001b]0;pwned title\u0007admission webhook "deny.example.com" denied the request: ' +
  `refresh_token=${SECRET}\nerror: fake second line\u202e ${'A'.repeat(2_000_000)}`;

/** Control characters, escape remains, bidi overrides: none may reach a sink. */
const DIRTY =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]|\\u001b|\\u0007/;

function expectClean(text: string, max = SENTENCE_MAX): void {
  expect(text).not.toMatch(DIRTY);
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('pwned');
  expect(Array.from(text).length).toBeLessThanOrEqual(max);
}

const status403: Answer = sendJson(
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: HOSTILE,
    reason: 'Forbidden',
    code: 403,
  }),
  403,
);

async function hostileApi(list: Answer) {
  const api = await startBrokenApi({ list });
  cleanup(() => api.close());
  const dir = tempDir();
  const file = path.join(dir, 'config');
  writeKubeconfig(file, { server: api.url, 'certificate-authority-data': caData(api.caPem) }, { token: 't' });
  return { api, dir, file };
}

describe('a hostile 2 MB Status message', () => {
  it('reaches CLI stderr as one clean, redacted, capped line', async () => {
    const { file } = await hostileApi(status403);
    const r = await runCliOnce(['scan', '--kubeconfig', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const line = lines[0] ?? '';
    expect(line).toMatch(
      /^error: context "x": Not allowed listing nodes: admission webhook "deny\.example\.com" denied the request: refresh_token=\[redacted\] error: fake second line A+…$/,
    );
    expectClean(line, SENTENCE_MAX);
  });

  it('reaches the engine snapshot and the log file clean, at a bounded cost', async () => {
    const { file, dir } = await hostileApi(status403);
    const logFile = path.join(dir, 'gpu-fleet.log');
    const run = startRun([loadContext(file)]);
    cleanup(() => run.stop());
    const stopLog = logEngine(run.engine, new Logger(new RotatingFileSink(logFile), 'debug'));
    cleanup(stopLog);
    await run.waitForPhase('forbidden');
    const message = run.ctx().connection.message ?? '';
    expect(message).toMatch(/^Not allowed listing nodes: admission webhook "deny\.example\.com" denied/);
    expectClean(message);
    // What the window receives stays small however large the server's answer was.
    expect(JSON.stringify(run.engine.snapshot()).length).toBeLessThan(20_000);

    await run.waitFor(
      () => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8').includes('forbidden'),
      'the log line',
    );
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).not.toMatch(DIRTY);
    expect(log).not.toContain(SECRET);
    for (const line of log.trimEnd().split('\n')) {
      expect(line.length).toBeLessThan(2 * SENTENCE_MAX);
      const entry = JSON.parse(line) as Record<string, unknown>;
      for (const v of Object.values(entry)) if (typeof v === 'string') expectClean(v);
    }
  });

  it('is read to a bounded head: a 2 MB error body is not kept', async () => {
    const { file } = await hostileApi(status403);
    const client = new ContextClient(loadContext(file));
    cleanup(() => client.close());
    const res = await client.request('GET', '/api/v1/nodes?limit=1');
    expect(res.status).toBe(403);
    expect(res.body.length).toBeLessThanOrEqual(64 << 10);
    const err = await client.getJson('/api/v1/nodes?limit=1', 'listing nodes').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expectClean((err as Error).message);
  });
});

describe('hostile node text', () => {
  const SHORT = '\u001b[2J\u001b]0;pwned\u0007Tesla\nT4\u202e';
  const list = (): string => {
    const doc = JSON.parse(nodeList()) as { items: unknown[] };
    doc.items.push(
      rawNode({
        name: 'evil',
        ready: 'False',
        reason: `\u001b[31mKubelet${'R'.repeat(5000)}`,
        message: HOSTILE,
        labels: { 'nvidia.com/gpu.product': SHORT, 'nvidia.com/gpu.count': '1' },
        capacity: { 'nvidia.com/gpu': '1' },
        resourceVersion: '99',
      }),
    );
    return JSON.stringify(doc);
  };

  it('the inventory entry, the table and the JSON output carry it clean', async () => {
    const { file } = await hostileApi(sendJson(list()));
    const wide = await runCliOnce(['scan', '--kubeconfig', file, '-o', 'wide']);
    expect(wide.code).toBe(0);
    expect(wide.stdout).not.toMatch(DIRTY);
    const evil = wide.stdout.split('\n').filter((l) => l.startsWith('evil'));
    expect(evil).toHaveLength(1);
    expect(evil[0]).toContain('Tesla T4');

    const json = await runCliOnce(['scan', '--kubeconfig', file, '-o', 'json']);
    const inv = JSON.parse(json.stdout) as {
      nodes: { name: string; product: string; not_ready_reason: string }[];
    };
    const entry = inv.nodes.find((n) => n.name === 'evil');
    expect(entry?.product).toBe('Tesla T4');
    expect(entry?.not_ready_reason).toMatch(/^KubeletR+…$/);
    expectClean(entry?.not_ready_reason ?? '', 64);

    const run = startRun([loadContext(file)]);
    cleanup(() => run.stop());
    await run.live();
    const shown = run.ctx().inventory?.nodes.find((n) => n.name === 'evil');
    expect(shown?.product).toBe('Tesla T4');
    expectClean(JSON.stringify(shown), 10_000);
  });
});

describe('exec plugin stderr with secrets', () => {
  const stderr =
    `error: refresh_token=${SECRET} client_secret s3cr3tValue99 password: hunter2 ` +
    '\u001b[31mAuthorization: Bearer abcdef123456\u001b[0m\\nsecond';

  it('becomes a redacted one-line message in the CLI and in the engine', async () => {
    const dir = tempDir();
    const plugin = execPlugin(dir, `process.stderr.write(${JSON.stringify(stderr)}); process.exit(1);`);
    const file = path.join(dir, 'config');
    writeKubeconfig(
      file,
      { server: 'https://127.0.0.1:1' },
      { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin } },
    );
    const r = await runCliOnce(['scan', '--kubeconfig', file]);
    expect(r.stderr).toMatch(
      /^error: context "x": exec plugin "plugin\.sh" failed: error: refresh_token=\[redacted\]/,
    );
    for (const s of [SECRET, 's3cr3tValue99', 'hunter2', 'abcdef123456']) expect(r.stderr).not.toContain(s);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expectClean(r.stderr.trimEnd());

    const run = startRun([loadContext(file)]);
    cleanup(() => run.stop());
    await run.waitForPhase('config-error');
    const message = run.ctx().connection.message ?? '';
    expect(message).toContain('Authorization: Bearer [redacted]');
    for (const s of [SECRET, 's3cr3tValue99', 'hunter2', 'abcdef123456']) expect(message).not.toContain(s);
  });
});

describe('server addresses with credentials', () => {
  it('are shown as scheme://host:port only, in the snapshot and the context list', async () => {
    const api = await startBrokenApi({ list: sendJson(nodeList()) });
    cleanup(() => api.close());
    const port = new URL(api.url).port;
    const server = `https://admin:pw@127.0.0.1:${port}/?token=abc`;
    const ctx = contextFor(
      tempDir(),
      { server, 'certificate-authority-data': caData(api.caPem) },
      { token: 't' },
    );
    const run = startRun([ctx]);
    cleanup(() => run.stop());
    await run.live();
    expect(run.ctx().server).toBe(api.url);
    expect(JSON.stringify(run.engine.snapshot())).not.toMatch(/admin:pw|token=abc/);

    const load = loadKubeconfig({ explicitPath: ctx.file });
    if (load.kind !== 'loaded') throw new Error(load.message);
    expect(contextInfos(load).map((c) => c.server)).toEqual([api.url]);
  });
});
