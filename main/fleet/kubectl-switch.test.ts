/**
 * The app core's kubectl context switcher against the sim: the contract's channels, the push after a
 * switch, refusals as `{kind, message}` the tray and the window show, and the rule that monitoring
 * never writes the kubeconfig by itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KUBECTL_CONTEXTS_MAX } from '../../common/fleet.ts';
import type { PushEvents } from '../../common/ipc.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { openSettings } from '../settings/store.ts';
import { AppCore } from './app-core.ts';
import { dispatchInvoke } from './host.ts';

let env: SimContext;
let core: AppCore;
let pushes: { channel: string; payload: unknown }[];

beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
  core = new AppCore({
    settings: openSettings({ cwd: path.join(env.dir, 'settings') }),
    kubeconfig: { explicitPath: env.kubeconfigPath },
    mode: 'browser',
    version: 'test',
    watchFiles: false,
    engine: { snapshotMs: 10 },
  });
  pushes = [];
  core.onPush((channel, payload) => pushes.push({ channel, payload }));
});
afterEach(async () => {
  core.stop();
  await env.cleanup();
});

const kubectlPushes = () =>
  pushes
    .filter((p) => p.channel === 'kubectl:contexts')
    .map((p) => p.payload as PushEvents['kubectl:contexts']);

describe('kubectl context switching in the app', () => {
  it('lists the contexts with the current one, switches, re-reads and pushes the new current context', async () => {
    const before = await core.handlers['kubectl:contexts']();
    expect(before).toMatchObject({ current: 'sim-admin', more: 0, error: null });
    expect(before.contexts).toEqual(expect.arrayContaining(['sim-admin', 'sim-readonly']));
    const after = await core.handlers['kubectl:use-context']('sim-readonly');
    expect(after.current).toBe('sim-readonly');
    expect(kubectlPushes().at(-1)?.current).toBe('sim-readonly');
    expect(fs.readFileSync(env.kubeconfigPath, 'utf8')).toMatch(/^current-context: sim-readonly$/m);
    // The window's list follows too: contexts:list marks the new current context.
    const listed = await core.handlers['contexts:list']();
    expect(listed.find((c) => c.current)?.name).toBe('sim-readonly');
  });

  it('refuses an unknown context with its kind and one sentence, kept for the tray until the next switch', async () => {
    const bytes = fs.readFileSync(env.kubeconfigPath);
    const r = await dispatchInvoke(core.handlers, 'kubectl:use-context', ['nope']);
    expect(r).toEqual({
      ok: false,
      status: 500,
      kind: 'not-found',
      error: `There is no context named "nope" in the kubeconfig (${env.kubeconfigPath}).`,
      // The facts the window words in its language (common/kubeconfig-words.ts).
      words: { code: 'kubeNoContext', name: 'nope', files: env.kubeconfigPath },
    });
    expect(core.kubectlContexts().error).toBe(r.ok ? null : r.error);
    expect(kubectlPushes().at(-1)?.error).toBe(r.ok ? null : r.error);
    expect(fs.readFileSync(env.kubeconfigPath).equals(bytes)).toBe(true);
    await core.handlers['kubectl:use-context']('sim-readonly');
    expect(core.kubectlContexts().error).toBeNull();
  });

  it('sends at most KUBECTL_CONTEXTS_MAX names and counts the rest', () => {
    const file = path.join(env.dir, 'many');
    const names = Array.from({ length: KUBECTL_CONTEXTS_MAX + 20 }, (_, i) => `c${i}`);
    fs.writeFileSync(
      file,
      `clusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\ncontexts:\n${names
        .map((n) => `- name: ${n}\n  context: {cluster: c}\n`)
        .join('')}current-context: c0\n`,
      { mode: 0o600 },
    );
    const many = new AppCore({
      settings: openSettings({ cwd: path.join(env.dir, 'settings-many') }),
      kubeconfig: { explicitPath: file },
      mode: 'browser',
      version: 'test',
      watchFiles: false,
    });
    const listed = many.kubectlContexts();
    expect(listed.contexts).toHaveLength(KUBECTL_CONTEXTS_MAX);
    expect(listed.more).toBe(20);
    expect(listed.current).toBe('c0');
    many.stop();
  });

  it("validates the name at the contract's edge", async () => {
    for (const bad of [[''], ['x'.repeat(254)], ['a\u0007b'], [42], []]) {
      const r = await dispatchInvoke(core.handlers, 'kubectl:use-context', bad);
      expect(r).toMatchObject({ ok: false, status: 400, kind: 'bad-request' });
    }
  });

  it('pushes the new current context when something else (kubectl, an editor) switched it', async () => {
    const clock = new ManualClock();
    const watched = new AppCore({
      settings: openSettings({ cwd: path.join(env.dir, 'settings-watched') }),
      kubeconfig: { explicitPath: env.kubeconfigPath },
      mode: 'browser',
      version: 'test',
      clock,
    });
    const seen: PushEvents['kubectl:contexts'][] = [];
    watched.onPush((channel, payload) => {
      if (channel === 'kubectl:contexts') seen.push(payload as PushEvents['kubectl:contexts']);
    });
    watched.start();
    try {
      const text = fs.readFileSync(env.kubeconfigPath, 'utf8');
      fs.writeFileSync(
        env.kubeconfigPath,
        text.replace(/^current-context: .*$/m, 'current-context: sim-readonly'),
      );
      await pollUntil(() => clock.pending > 0, 'the file event');
      await pollUntil(() => {
        clock.advance(250);
        return seen.at(-1)?.current === 'sim-readonly';
      }, 'the push after the re-read');
      expect(watched.kubectlContexts().current).toBe('sim-readonly');
    } finally {
      watched.stop();
    }
  });

  it('monitoring never writes the kubeconfig by itself', async () => {
    const bytes = fs.readFileSync(env.kubeconfigPath);
    const mtime = fs.statSync(env.kubeconfigPath).mtimeMs;
    core.start();
    await pollUntil(
      () => core.engine.snapshot().contexts[0]?.inventory?.total_gpu_nodes === 4,
      'the inventory',
      {
        limitMs: 5000,
        everyMs: 20,
      },
    );
    await core.handlers['contexts:set-monitored'](['sim-admin', 'sim-readonly']);
    await core.handlers['fleet:focus']('sim-readonly');
    core.stop();
    expect(fs.readFileSync(env.kubeconfigPath).equals(bytes)).toBe(true);
    expect(fs.statSync(env.kubeconfigPath).mtimeMs).toBe(mtime);
  });
});
