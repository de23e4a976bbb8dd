// The per-context client over real HTTPS against the simulator: TLS trust, auth, errors, exec plugins.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { WatcherRecorder } from '../../test/helpers/watcher-recorder.ts';
import { ContextClient } from './context-client.ts';
import { KubeError } from './errors.ts';
import { findContext, loadKubeconfig } from './kubeconfig.ts';
import { ListWatcher } from './list-watcher.ts';
import type { WatchedResource } from './watched-resource.ts';

/** Only the names of the nodes: this layer knows nothing of what the engine keeps of a Node. */
const NODE_NAMES: WatchedResource<string> = {
  path: '/api/v1/nodes',
  singular: 'node',
  plural: 'nodes',
  trim: (raw) => {
    const name = (raw as { metadata?: { name?: unknown } } | null)?.metadata?.name;
    return typeof name === 'string' ? name : null;
  },
  nameOf: (name) => name,
  same: (a, b) => a === b,
};

let sims: SimContext[] = [];
afterEach(async () => {
  for (const s of sims) await s.cleanup();
  sims = [];
});

async function sim(): Promise<SimContext> {
  const s = await startSimContext({ scenario: 'homelab' });
  sims.push(s);
  return s;
}

/** Writes a kubeconfig next to the sim's and returns its one context, loaded by our loader. */
function contextFrom(
  s: SimContext,
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
  name = 'k.yaml',
) {
  const file = path.join(s.dir, name);
  fs.writeFileSync(
    file,
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: s.sim.url, ...cluster } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    }),
    { mode: 0o600 },
  );
  const load = loadKubeconfig({ explicitPath: file });
  if (load.kind !== 'loaded') throw new Error(load.message);
  const ctx = findContext(load, 'x');
  if (!ctx) throw new Error('no context');
  return { ctx, load };
}

const caData = (s: SimContext) => Buffer.from(s.sim.caPem).toString('base64');

async function listError(client: ContextClient): Promise<KubeError> {
  try {
    await client.getJson('/api/v1/nodes', 'listing nodes');
  } catch (e) {
    if (e instanceof KubeError) return e;
    throw e;
  } finally {
    client.close();
  }
  throw new Error('the list worked');
}

/** Three answers (plain, peeked, parsed) as weak references only, so nothing here keeps them. */
async function weakAnswers(client: ContextClient): Promise<WeakRef<object>[]> {
  const answers: WeakRef<object>[] = [];
  for (const peek of [undefined, { bytes: 16, read: () => undefined }]) {
    const res = await client.request('GET', '/api/v1/nodes', peek ? { peek } : {});
    expect(res.status).toBe(200);
    answers.push(new WeakRef(res));
  }
  answers.push(new WeakRef((await client.getJson('/api/v1/nodes', 'listing nodes')) as object));
  return answers;
}

describe('ContextClient', () => {
  it('refuses a server whose certificate does not match the kubeconfig CA', async () => {
    const [a, b] = [await sim(), await sim()];
    const { ctx } = contextFrom(
      a,
      { 'certificate-authority-data': caData(b) },
      { token: a.sim.tokens.admin },
    );
    const e = await listError(new ContextClient(ctx));
    expect(e.kind).toBe('tls');
    expect(e.phase).toBe('config-error');
    expect(e.message).toMatch(/not signed by the kubeconfig's certificate authority/);
  });

  it('connects without a CA when insecure-skip-tls-verify is set (and the loader warned)', async () => {
    const s = await sim();
    const { ctx, load } = contextFrom(s, { 'insecure-skip-tls-verify': true }, { token: s.sim.tokens.admin });
    expect(load.kind === 'loaded' && load.warnings.map((w) => w.kind)).toEqual(['insecure-skip-tls-verify']);
    const client = new ContextClient(ctx);
    const list = (await client.getJson('/api/v1/nodes', 'listing nodes')) as { items: unknown[] };
    client.close();
    expect(list.items).toHaveLength(8);
  });

  it.each([
    ['a wrong token', { token: 'nope' }, 'unauthorized', /rejected the credentials/],
    [
      'a missing token file',
      { 'token-file': 'missing-token' },
      'config',
      /missing-token, which cannot be read \(ENOENT\)/,
    ],
  ])('classifies %s', async (_what, user, kind, words) => {
    const s = await sim();
    const { ctx } = contextFrom(s, { 'certificate-authority-data': caData(s) }, user);
    const e = await listError(new ContextClient(ctx));
    expect(e.kind).toBe(kind);
    expect(e.message).toMatch(words);
    expect(e.message).not.toContain(s.sim.tokens.admin);
  });

  it('reads a token file relative to the kubeconfig', async () => {
    const s = await sim();
    fs.writeFileSync(path.join(s.dir, 'token'), s.sim.tokens.readonly);
    const { ctx } = contextFrom(s, { 'certificate-authority-data': caData(s) }, { 'token-file': 'token' });
    const client = new ContextClient(ctx);
    const res = await client.request('GET', '/api/v1/nodes');
    client.close();
    expect(res.status).toBe(200);
  });

  it('peek hands over the head of a 2xx body before the whole answer has resolved', async () => {
    const s = await sim();
    const client = new ContextClient(s.context());
    const heads: string[] = [];
    let resolved = false;
    const res = client
      .request('GET', '/api/v1/nodes', { peek: { bytes: 32, read: (h) => heads.push(`${resolved}:${h}`) } })
      .finally(() => {
        resolved = true;
      });
    const { status, body } = await res;
    expect(status).toBe(200);
    expect(heads).toEqual([`false:${body.slice(0, 32)}`]);
    // Not for an error answer, nor for a body shorter than asked.
    const missing = await client.request('GET', '/api/v1/nodes/none', {
      peek: { bytes: 1, read: (h) => heads.push(`404:${h}`) },
    });
    expect(missing.status).toBe(404);
    await client.request('GET', '/version', { peek: { bytes: 1 << 20, read: () => heads.push('short') } });
    client.close();
    expect(heads).toHaveLength(1);
  });

  it('a settled answer is not kept alive by the connection it came on', async () => {
    // The kept-alive socket outlives the request (Node's https agent keeps its first request reachable
    // through the socket's TLS 'session' listener): our listeners on it must not keep the answer too.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const s = await sim();
    const client = new ContextClient(s.context());
    const answers = await weakAnswers(client);
    // Let the sockets go back to the agent's free list, then collect.
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 4; i++) gc();
    expect(answers.map((a) => a.deref() === undefined)).toEqual([true, true, true]);
    client.close();
  });

  it('a signal cancels its request alone; one aborted already sends nothing', async () => {
    const s = await sim();
    s.sim.control.setLatency(60_000);
    const client = new ContextClient(s.context());
    const stop = new AbortController();
    const slow = client.request('GET', '/api/v1/nodes', { signal: stop.signal });
    const other = client.request('GET', '/version');
    let otherDone = false;
    void other
      .catch(() => undefined)
      .finally(() => {
        otherDone = true;
      });
    stop.abort();
    await expect(slow).rejects.toMatchObject({ kind: 'aborted' });
    await new Promise((r) => setImmediate(r));
    // The other request was not cancelled: it is still waiting (close() ends it).
    expect(otherDone).toBe(false);
    client.close();
    await expect(other).rejects.toMatchObject({ kind: 'aborted' });

    s.sim.control.setLatency(0);
    const again = new ContextClient(s.context());
    await expect(again.request('GET', '/version?never-sent', { signal: stop.signal })).rejects.toMatchObject({
      kind: 'aborted',
    });
    expect((await again.request('GET', '/version?after')).status).toBe(200);
    again.close();
    expect(s.sim.control.requestLog().map((x) => x.path)).not.toContain('/version?never-sent');
  });

  it('says which cluster a context names when no file defines it', () => {
    const ctx = {
      name: 'x',
      clusterName: 'gone',
      userName: null,
      namespace: null,
      cluster: null,
      user: null,
      file: '/k',
    };
    expect(() => new ContextClient(ctx)).toThrow(/names cluster "gone", which no kubeconfig file defines/);
  });
});

describe('exec credential plugins', () => {
  const plugin = (s: SimContext, body: string) => {
    const file = path.join(s.dir, 'bin', 'plugin.mjs');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
    // A relative command with a slash resolves against the kubeconfig's folder, as in kubectl.
    const sh = path.join(s.dir, 'bin', 'plugin.sh');
    fs.writeFileSync(sh, `#!/bin/sh\nexec "${process.execPath}" "${file}" "$@"\n`, { mode: 0o755 });
    return './bin/plugin.sh';
  };

  it('runs a working plugin and uses its token', async () => {
    const s = await sim();
    const cmd = plugin(
      s,
      `const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
       if (info.spec.interactive !== false || process.env.EXTRA !== 'yes') process.exit(3);
       console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
         status: { token: ${JSON.stringify(s.sim.tokens.admin)}, expirationTimestamp: '2099-01-01T00:00:00Z' } }));`,
    );
    const { ctx } = contextFrom(
      s,
      { 'certificate-authority-data': caData(s) },
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: cmd,
          env: [{ name: 'EXTRA', value: 'yes' }],
        },
      },
    );
    const client = new ContextClient(ctx);
    const res = await client.request('GET', '/api/v1/nodes');
    client.close();
    expect(res.status).toBe(200);
  });

  it('reports a failing plugin with the first line of its stderr', async () => {
    const s = await sim();
    const cmd = plugin(
      s,
      `process.stderr.write('\\nerror: token expired, run gcloud auth login\\nmore detail\\n'); process.exit(1);`,
    );
    const { ctx } = contextFrom(s, { 'certificate-authority-data': caData(s) }, { exec: { command: cmd } });
    const e = await listError(new ContextClient(ctx));
    expect(e.kind).toBe('exec-plugin');
    expect(e.message).toBe('exec plugin "plugin.sh" failed: error: token expired, run gcloud auth login');
  });

  it('a missing plugin is a config-error naming the command, not retried on a timer', async () => {
    const s = await sim();
    const { ctx } = contextFrom(
      s,
      { 'certificate-authority-data': caData(s) },
      {
        exec: {
          command: 'definitely-not-installed-plugin',
          installHint: 'Install it with: brew install it\nsecond line',
        },
      },
    );
    const rec = new WatcherRecorder(NODE_NAMES);
    const w = new ListWatcher(NODE_NAMES, () => new ContextClient(ctx), rec.on, {
      backoff: { initialMs: 10 },
    });
    w.start();
    await rec.waitForPhase('config-error');
    w.stop();
    const st = rec.states.at(-1);
    expect(st?.message).toBe(
      'exec plugin "definitely-not-installed-plugin" was not found in PATH or the usual install folders. Install it with: brew install it',
    );
    expect(st?.retryAt).toBeNull();
  });
});
