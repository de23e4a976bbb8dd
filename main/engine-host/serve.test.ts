/**
 * The engine host against the simulator, driven over an in-memory port exactly as the shell drives it:
 * the handshake, the tray summary (small, sent only when it changes), invokes answered as JSON text,
 * the shell's settings, the window bounds saved, stats, messages not of the protocol, and stop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostMessage, ShellMessage } from '../../common/host-protocol.ts';
import { type RunningSim, startSim } from '../../sim/index.ts';
import { pollUntil } from '../../test/helpers/poll.ts';
import { openSettings } from '../settings/store.ts';
import { serveEngineHost } from './serve.ts';

let sim: RunningSim;
let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  sim = await startSim({ scenario: 'homelab' });
  for (const n of ['nuc1', 'nuc2', 'omen', 'omen2']) sim.control.setNodeReady(n, 'True');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-host-'));
  kubeconfig = path.join(dir, 'config');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sim?.close();
});

function startHost() {
  const got: HostMessage[] = [];
  const exits: number[] = [];
  let deliver: (m: unknown) => void = () => undefined;
  serveEngineHost(
    { post: (m) => got.push(structuredClone(m)), onMessage: (l) => (deliver = l) },
    { env: { KUBECONFIG: kubeconfig, HOME: dir }, exit: (code) => exits.push(code) },
  );
  const send = (m: ShellMessage | Record<string, unknown>) => deliver(structuredClone(m));
  const of = <T extends HostMessage['type']>(type: T) =>
    got.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);
  let nextId = 1;
  const invoke = async (channel: string, args: unknown[]) => {
    const id = nextId++;
    send({ type: 'invoke', id, channel, args });
    await pollUntil(() => of('reply').some((r) => r.id === id), `the reply to ${channel}`);
    return of('reply').find((r) => r.id === id)?.reply;
  };
  return { got, exits, send, of, invoke };
}

describe('the engine host', () => {
  const settingsDir = () => path.join(dir, 'settings');
  let host: ReturnType<typeof startHost>;
  const tooltip = () => host.of('tray').at(-1)?.model.tooltip ?? '';

  it('listens first, and is ready after init with the shell settings and a tray summary', async () => {
    host = startHost();
    expect(host.got).toEqual([{ type: 'listening' }]);
    host.send({
      type: 'init',
      settingsDir: settingsDir(),
      version: '9.9.9',
      systemLanguages: ['ko-KR'],
      windowOpen: false,
    });
    await pollUntil(() => host.of('ready').length === 1, 'ready');
    expect(host.of('shell')[0]?.settings).toEqual({ language: 'auto', launchAtLogin: false, window: null });
    expect(host.of('tray').at(-1)?.model.tooltip).toContain('sim-admin');
  });

  it('words the tray here, in the OS language the shell reported, and sends it only when it changed', async () => {
    await pollUntil(() => tooltip().includes('4/4'), 'the first inventory in the tray');
    // ko-KR, the language setting being auto: the shell words nothing of the fleet itself.
    const [title, free, ...contexts] = tooltip().split('\n');
    expect(title).toBe('GPU Fleet');
    // The free-GPU headline is worded in Korean too ("사용 가능한 GPU …").
    expect(free).toMatch(/사용 가능한 GPU/);
    expect(contexts).toEqual(['sim-admin — GPU 노드 4/4 Ready, GPU 1개']);
    const menu = host.of('tray').at(-1)?.model.menu ?? [];
    expect(menu.find((i) => i.type === 'checkbox')).toMatchObject({
      type: 'checkbox',
      action: { kind: 'focus', context: 'sim-admin' },
    });
    // Only when it changed: no push repeats the one before it (a state may come back later, e.g. free GPUs
    // unknown while the pods are relisted, and is then sent again).
    const trays = host.of('tray').map((m) => JSON.stringify(m));
    expect(trays.filter((t, i) => i > 0 && t === trays[i - 1])).toEqual([]);
  });

  it('pushes to the window only while one is open, as JSON text encoded here', async () => {
    // No window yet: nothing was encoded or sent for one, though the engine made snapshots.
    expect(host.of('push')).toEqual([]);
    host.send({ type: 'window', open: true });
    sim.control.setNodeReady('omen', 'False');
    await pollUntil(() => host.of('push').length > 0, 'a push to the window');
    expect(typeof host.of('push')[0]?.json).toBe('string');
    await pollUntil(() => tooltip().includes('3/4'), 'the drop in the tray');
    host.send({ type: 'window', open: false });
    const sent = host.of('push').length;
    sim.control.setNodeReady('omen', 'True');
    // The engine saw it (the tray changed), but nothing went to a window that is not there.
    await pollUntil(() => tooltip().includes('4/4'), 'the recovery in the tray');
    expect(host.of('push')).toHaveLength(sent);
  });

  it('answers invokes as JSON text, failures with their kind', async () => {
    const info = await host.invoke('app:info', []);
    expect(info?.ok).toBe(true);
    if (info?.ok) expect(JSON.parse(info.json)).toMatchObject({ version: '9.9.9', mode: 'electron' });
    expect(await host.invoke('fleet:focus', [42])).toMatchObject({
      ok: false,
      error: { kind: 'bad-request' },
    });
  });

  it('tells the shell its settings after a change, and saves the window bounds it is sent', async () => {
    const reply = await host.invoke('settings:update', [{ language: 'ja', launchAtLogin: true }]);
    expect(reply?.ok).toBe(true);
    expect(host.of('shell').at(-1)?.settings).toMatchObject({ language: 'ja', launchAtLogin: true });
    const window = { x: 10, y: 20, width: 900, height: 700, maximized: false };
    host.send({ type: 'save-window', window });
    expect(openSettings({ cwd: settingsDir() }).get('window')).toEqual(window);
  });

  it('answers stats, and drops (and logs) what is not of the protocol', async () => {
    host.send({ type: 'stats', id: 77 });
    const stats = host.of('stats').find((s) => s.id === 77)?.stats;
    expect(stats?.rssBytes).toBeGreaterThan(0);
    expect(stats?.loopDelayMaxMs).toBeGreaterThanOrEqual(0);
    const before = host.got.length;
    host.send({ type: 'invoke', id: 1, channel: 'not:a-channel', args: [] });
    host.send({ type: 'init', settingsDir: '' });
    host.send({ type: 'stop', now: 'please' });
    const after = host.got.slice(before);
    expect(after.filter((m) => m.type !== 'log')).toEqual([]);
    expect(after.filter((m) => m.type === 'log')).toHaveLength(3);
    expect(host.exits).toEqual([]);
  });

  it('stops when asked: saves, stops the engine, and exits 0', async () => {
    host.send({ type: 'stop' });
    await pollUntil(() => host.exits.length === 1, 'the exit');
    expect(host.exits).toEqual([0]);
    const saved = openSettings({ cwd: settingsDir() }).get('lastKnown');
    expect(Object.keys(saved)).toEqual(['sim-admin']);
  });
});
