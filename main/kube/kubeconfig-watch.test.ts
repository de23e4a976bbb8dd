/**
 * Kubeconfig reloads on real file-system events, debounced on a ManualClock: in-place writes, renames,
 * files that appear later, and (with the engine) that only the contexts whose settings changed restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { FleetEngine } from '../fleet/engine.ts';
import { ContextClient } from './context-client.ts';
import { contextFingerprint } from './fingerprint.ts';
import type { KubeconfigLoad, ResolvedContext } from './kubeconfig-types.ts';
import type { KubeconfigWatch } from './kubeconfig-watch.ts';
import { watchKubeconfig } from './kubeconfig-watch.ts';

/** One cluster; each context has a user of its own, so one token can change alone. */
const config = (contexts: string[], tokens: Record<string, string> = {}) => `
clusters:
- name: c
  cluster: {server: "https://10.0.0.1:6443"}
users:
${contexts.map((n) => `- name: u-${n}\n  user: {token: ${tokens[n] ?? `t-${n}`}}`).join('\n')}
contexts:
${contexts.map((n) => `- name: ${n}\n  context: {cluster: c, user: u-${n}}`).join('\n')}
`;

const DEBOUNCE_MS = 30;
let dir = '';
let watch: KubeconfigWatch | null = null;
let engine: FleetEngine | null = null;
let sim: SimContext | null = null;
afterEach(async () => {
  watch?.close();
  watch = null;
  engine?.stop();
  engine = null;
  await sim?.cleanup();
  sim = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

function start(files: string[], onLoad: (l: KubeconfigLoad) => void = () => undefined) {
  const clock = new ManualClock();
  const loads: KubeconfigLoad[] = [];
  watch = watchKubeconfig({ env: { KUBECONFIG: files.join(':') }, clock, debounceMs: DEBOUNCE_MS }, (l) => {
    loads.push(l);
    onLoad(l);
  });
  /** Call after changing a file: waits for its (real) fs event, then lets the debounce run out. */
  const reload = async (what: string): Promise<KubeconfigLoad> => {
    const n = loads.length;
    await pollUntil(() => clock.pending > 0, `the file event for ${what}`);
    expect(loads).toHaveLength(n); // still debouncing
    clock.advance(DEBOUNCE_MS);
    const l = loads.at(-1);
    if (loads.length === n || !l) throw new Error(`no reload for ${what}`);
    return l;
  };
  return { loads, reload };
}

const names = (l: KubeconfigLoad) => (l.kind === 'loaded' ? l.contexts.map((c) => c.name) : []);
const fingerprint = (l: KubeconfigLoad, name: string) => {
  const c = l.kind === 'loaded' ? l.contexts.find((x) => x.name === name) : undefined;
  if (!c) throw new Error(`no context ${name}`);
  return contextFingerprint(c);
};

describe('watchKubeconfig', () => {
  it('reloads on an in-place write and a rename; only the edited context gets a new fingerprint', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kcw-'));
    const f = path.join(dir, 'config');
    fs.writeFileSync(f, config(['a']), { mode: 0o600 });
    const { reload } = start([f]);

    fs.writeFileSync(f, config(['a', 'b']));
    const first = await reload('in-place write');
    expect(names(first)).toEqual(['a', 'b']);

    const tmp = path.join(dir, '.config.tmp');
    fs.writeFileSync(tmp, config(['a', 'b'], { b: 'rotated' }), { mode: 0o600 });
    fs.renameSync(tmp, f);
    const second = await reload('rename');
    expect(names(second)).toEqual(['a', 'b']);
    expect(fingerprint(second, 'a')).toBe(fingerprint(first, 'a'));
    expect(fingerprint(second, 'b')).not.toBe(fingerprint(first, 'b'));

    // After a rename the file watch is renewed: a later in-place edit is still seen.
    fs.writeFileSync(f, config(['a', 'b', 'c'], { b: 'rotated' }));
    expect(names(await reload('edit after rename'))).toEqual(['a', 'b', 'c']);
  });

  it('notices a KUBECONFIG file that appears later', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kcw-'));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.writeFileSync(a, config(['a']), { mode: 0o600 });
    const { reload } = start([a, b]);
    fs.writeFileSync(
      b,
      config(['from-b']).replaceAll('name: c', 'name: c2').replace('cluster: c,', 'cluster: c2,'),
      { mode: 0o600 },
    );
    expect(names(await reload('new file'))).toEqual(['a', 'from-b']);
  });

  it('keeps the client of an unchanged context and replaces the client of an edited one', async () => {
    sim = await startSimContext({ scenario: 'homelab' });
    const env = sim;
    dir = '';
    class RecordedClient extends ContextClient {
      closed = false;
      override close(): void {
        this.closed = true;
        super.close();
      }
    }
    const made: { name: string; client: RecordedClient }[] = [];
    const clientsOf = (name: string) => made.filter((m) => m.name === name).map((m) => m.client);
    engine = new FleetEngine({
      clock: new ManualClock(),
      // sim-admin and sim-readonly reach one cluster: kept apart here, each with a monitor and client of its own.
      mergeSameCluster: () => false,
      // One watcher per context here (the pods watch of free GPUs would make a second client of each).
      freeGpus: () => false,
      makeClient: (ctx) => {
        const client = new RecordedClient(ctx);
        made.push({ name: ctx.name, client });
        return client;
      },
    });
    const monitored = (l: KubeconfigLoad): ResolvedContext[] =>
      l.kind === 'loaded'
        ? l.contexts.filter((c) => c.name === 'sim-admin' || c.name === 'sim-readonly')
        : [];
    const firstLoad: KubeconfigLoad = env.loaded;
    engine.setContexts(monitored(firstLoad));
    expect(made.map((m) => m.name)).toEqual(['sim-admin', 'sim-readonly']);

    const { reload } = start([env.kubeconfigPath], (l) => engine?.setContexts(monitored(l)));
    // The user points sim-readonly at another (valid) token; sim-admin's entry is untouched.
    const doc = parse(fs.readFileSync(env.kubeconfigPath, 'utf8')) as {
      users: { name: string; user: { token: string } }[];
    };
    for (const u of doc.users) if (u.name === 'sim-readonly') u.user.token = env.sim.tokens.revocable;
    fs.writeFileSync(env.kubeconfigPath, stringify(doc), { mode: 0o600 });
    const next = await reload('the token edit');

    expect(fingerprint(next, 'sim-admin')).toBe(fingerprint(firstLoad, 'sim-admin'));
    expect(fingerprint(next, 'sim-readonly')).not.toBe(fingerprint(firstLoad, 'sim-readonly'));
    const [admin, ...moreAdmins] = clientsOf('sim-admin');
    expect(moreAdmins).toEqual([]); // the same client (and monitor) goes on
    expect(admin?.closed).toBe(false);
    const [oldReadonly, newReadonly, ...rest] = clientsOf('sim-readonly');
    expect(rest).toEqual([]);
    expect(oldReadonly?.closed).toBe(true);
    expect(newReadonly?.closed).toBe(false);
    expect(newReadonly).not.toBe(oldReadonly);
  });
});
