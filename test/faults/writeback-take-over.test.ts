/**
 * Fault matrix, write-back take-over in the app (desktop and browser share AppCore and its handlers): a
 * ConfigMap another tool made is a `conflict` naming its owner, and nothing is forced while the context's
 * take-over setting is off (the default); the window's "Take over" (`writeback:take-over`) turns it on for
 * that context only, it is saved, and the next apply forces and succeeds, still keeping the other tool's
 * keys. Against the simulator over HTTPS; its request log shows every `force=true`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContextSnapshot, FleetSnapshot } from '../../common/fleet.ts';
import { takeOverOptedIn } from '../../common/settings.ts';
import { AppCore } from '../../main/fleet/app-core.ts';
import { dispatchInvoke } from '../../main/fleet/host.ts';
import { systemClock } from '../../main/kube/clock.ts';
import { ContextClient } from '../../main/kube/context-client.ts';
import { openSettings } from '../../main/settings/store.ts';
import { configMapPath } from '../../main/writeback/configmap-writer.ts';
import { DEFAULT_CRD_GROUP, installWriteback } from '../../main/writeback/index.ts';
import { startSimContext } from '../helpers/sim-context.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();
const NS = 'kube-system';
const CM = configMapPath(NS);

const helmConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'gpu-node-status', namespace: NS, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
  data: { summary: 'helm-owned', 'helm-key': 'keep me' },
};

async function setup() {
  const s = await startSimContext({ scenario: 'homelab' });
  cleanup(() => s.cleanup());
  const client = new ContextClient(s.context());
  cleanup(() => client.close());
  await installWriteback(client, { group: DEFAULT_CRD_GROUP, clock: systemClock });
  const r = await client.request('POST', `/api/v1/namespaces/${NS}/configmaps`, {
    body: JSON.stringify(helmConfigMap),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'helm/v3.16' },
  });
  expect(r.status).toBe(201);
  const settingsDir = path.join(s.dir, 'settings');
  const settings = openSettings({ cwd: settingsDir });
  settings.update({ contexts: ['sim-admin'], writeBack: { 'sim-admin': true } });
  s.sim.control.resetRequestLog();
  const core = new AppCore({
    settings,
    kubeconfig: { explicitPath: s.kubeconfigPath },
    mode: 'browser',
    version: 'test',
    watchFiles: false,
    engine: { snapshotMs: 5, coalesceMs: 5 },
  });
  cleanup(() => core.stop());
  core.start();
  const wb = (): ContextSnapshot['writeback'] | undefined => core.engine.snapshot().contexts[0]?.writeback;
  const poll = <T>(f: () => T) => expect.poll(f, { timeout: 15_000, interval: 10 });
  const configMapWrites = () =>
    s.sim.control.requestLog().filter((e) => e.method === 'PATCH' && e.path.startsWith(`${CM}?`));
  const getConfigMap = async () =>
    JSON.parse((await client.request('GET', CM, { headers: { Accept: 'application/json' } })).body) as {
      data: Record<string, string>;
    };
  return { s, core, settings, settingsDir, wb, poll, configMapWrites, getConfigMap };
}

describe('take-over from the window (writeback:take-over)', () => {
  it('is off by default: a conflict names the owner and nothing is forced', async () => {
    const { core, wb, poll, configMapWrites, getConfigMap, settings } = await setup();
    expect(settings.get('writeBackTakeOver')).toEqual({});
    await poll(() => wb()?.phase).toBe('conflict');
    expect(wb()?.owners).toEqual(['helm']);
    expect(wb()?.message).toContain('was not created by GPU Fleet (field manager "helm"');
    // The status (GPU Fleet's own object) is written meanwhile: the loop ran and still forced nothing.
    await poll(() => wb()?.writes).toBeGreaterThan(0);
    core.applyWriteback(); // a settings change elsewhere restarts nothing into forcing
    expect(configMapWrites().filter((e) => e.path.includes('force=true'))).toEqual([]);
    expect(configMapWrites()).toEqual([]);
    expect((await getConfigMap()).data).toEqual(helmConfigMap.data);
  });

  it('turned on for the context, the next apply forces and succeeds; the setting is saved', async () => {
    const { core, wb, poll, configMapWrites, getConfigMap, settingsDir } = await setup();
    await poll(() => wb()?.phase).toBe('conflict');
    expect(configMapWrites()).toEqual([]);

    // Through dispatchInvoke, the one entry Electron's IPC and the browser bridge share: arguments checked.
    expect(await dispatchInvoke(core.handlers, 'writeback:take-over', ['sim-admin', 'yes'])).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(configMapWrites()).toEqual([]);
    const r = await dispatchInvoke(core.handlers, 'writeback:take-over', ['sim-admin', true]);
    expect(r.ok && (r.value as FleetSnapshot).contexts[0]?.context).toBe('sim-admin');
    await poll(() => configMapWrites().some((e) => e.path.includes('force=true') && e.status === 200)).toBe(
      true,
    );
    await poll(() => wb()?.phase).toBe('idle');
    expect(wb()?.owners).toBeUndefined();
    const data = (await getConfigMap()).data;
    // Its own keys only: the keys Helm made are still Helm's.
    expect(data['helm-key']).toBe('keep me');
    expect(data.summary).toBe('helm-owned');
    expect(Object.keys(data).length).toBeGreaterThan(2);

    // Saved for this context only, read back from the file.
    const reopened = openSettings({ cwd: settingsDir });
    expect(takeOverOptedIn(reopened.get('writeBackTakeOver'), 'sim-admin')).toBe(true);
    expect((await core.handlers['settings:get']()).writeBackTakeOver).toEqual({ 'sim-admin': true });

    // Off again: the next conflict is not forced.
    await core.handlers['writeback:take-over']('sim-admin', false);
    expect(takeOverOptedIn(openSettings({ cwd: settingsDir }).get('writeBackTakeOver'), 'sim-admin')).toBe(
      false,
    );
  });

  it('is refused where write-back is off, in one sentence, and saves nothing', async () => {
    const { core, settings } = await setup();
    expect(() => core.handlers['writeback:take-over']('other', true)).toThrow(
      'Turn write-back on for "other" first.',
    );
    expect(() => core.handlers['writeback:take-over']('constructor', true)).toThrow(
      'Turn write-back on for "constructor" first.',
    );
    expect(settings.get('writeBackTakeOver')).toEqual({});
  });
});
