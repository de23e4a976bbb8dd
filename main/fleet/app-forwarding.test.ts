/**
 * The app core with a real forwarder against the sim and the fake ntfy server: the window lists the
 * targets and sends a test through the contract, and a planted token appears in no window push, no
 * invoke answer, no log line, not in the settings file, and in no error sentence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NtfyFake } from '../../test/fakes/ntfy-fake.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { type SimContext, startSimContext } from '../../test/helpers/sim-context.ts';
import { target } from '../forward/forward.testkit.ts';
import { Forwarder } from '../forward/forwarder.ts';
import { Logger } from '../log/logger.ts';
import { openSettings } from '../settings/store.ts';
import { AppCore } from './app-core.ts';
import { logEngine } from './engine-log.ts';
import { dispatchInvoke } from './host.ts';

const TOKEN = 'tk_plantedplantedplantedplanted1';
let env: SimContext;
let ntfy: NtfyFake;
let core: AppCore | null = null;
let forwarder: Forwarder | null = null;

beforeEach(async () => {
  env = await startSimContext({ scenario: 'homelab' });
  ntfy = await NtfyFake.start({
    now: () => Date.now(),
    users: [{ name: 'rig', password: 'pw', token: TOKEN, topics: 'gpu-*' }],
  });
});
afterEach(async () => {
  core?.stop();
  forwarder?.stop();
  core = null;
  await ntfy.stop();
  await env.cleanup();
});

describe('forwarding in the app core', () => {
  it('sends a test and forwards a drop; the planted token is in no push, answer, log, settings file or sentence', async () => {
    forwarder = new Forwarder([
      target('phone', 'ntfy', `${ntfy.url}/gpu-alerts`, { token: TOKEN }),
      target('locked', 'ntfy', `${ntfy.url}/not-allowed`, { token: TOKEN }, { minSeverity: 'urgent' }),
    ]);
    const settingsDir = path.join(env.dir, 'settings');
    core = new AppCore({
      settings: openSettings({ cwd: settingsDir }),
      kubeconfig: { explicitPath: env.kubeconfigPath },
      mode: 'browser',
      version: 'test',
      engine: { snapshotMs: 10 },
      forwarder,
      timelineDir: path.join(env.dir, 'timeline'),
    });
    const c = core;
    const seen: string[] = [];
    c.onPush((channel, payload) => seen.push(`${channel} ${JSON.stringify(payload)}`));
    logEngine(c.engine, new Logger({ write: (line) => seen.push(line) }, 'debug', 'test'));
    c.start();
    const invoke = async (channel: string, ...args: unknown[]) => {
      const out = await dispatchInvoke(c.handlers, channel, args);
      seen.push(JSON.stringify(out));
      return out;
    };

    const list = await invoke('forward:list');
    expect(list).toMatchObject({
      ok: true,
      value: { targets: [{ id: 'phone', kind: 'ntfy', host: ntfy.url }, { id: 'locked' }] },
    });
    expect(await invoke('forward:test', 'phone')).toEqual({
      ok: true,
      value: {
        ok: true,
        message: `ntfy ${ntfy.url}: test message delivered.`,
        words: { code: 'delivered', kind: 'ntfy', host: ntfy.url },
      },
    });
    const refused = await invoke('forward:test', 'locked');
    expect(refused).toMatchObject({
      ok: true,
      value: { ok: false, message: expect.stringContaining('403 forbidden') },
    });
    expect(await invoke('forward:test', 'Bad Id')).toMatchObject({ ok: false, status: 400 });

    await c.handlers['settings:update']({
      alertRules: {
        holdDownMs: 0,
        unreachableAfterMs: 60_000,
        withdrawnGpus: true,
        gpuHotC: 85,
        noFreeGpu: false,
      },
    });
    for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) env.sim.control.setNodeReady(n, 'True');
    await pollUntil(() => c.engine.snapshot().contexts[0]?.inventory?.ready_gpu_nodes === 4, 'all ready');
    env.sim.control.setNodeReady('omen', 'False', 'KubeletNotReady', 'PLEG is not healthy');
    await pollUntil(() => ntfy.messages('gpu-alerts').length === 2, 'the forwarded drop');
    await forwarder.settled();
    expect(ntfy.messages('gpu-alerts')[1]?.message).toContain('omen');
    seen.push(JSON.stringify(await invoke('forward:list')));
    // The delivery is kept with its alert in the timeline (written in batches: poll for it).
    const kept = () => c.timeline?.range('sim-admin', '1h').alerts.flatMap((a) => a.deliveries) ?? [];
    await pollUntil(() => kept().length > 0, 'the delivery in the timeline');
    expect(kept()[0]).toMatchObject({ channel: 'ntfy:phone', ok: true });
    seen.push(JSON.stringify(kept()));
    c.stop();

    const settingsFiles = fs
      .readdirSync(settingsDir)
      .map((f) => fs.readFileSync(path.join(settingsDir, f), 'utf8'));
    expect(seen.length).toBeGreaterThan(5);
    for (const text of [...seen, ...settingsFiles]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('/gpu-alerts');
    }
  });
});
