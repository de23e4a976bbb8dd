/**
 * The shell's side of the engine host with a scripted child process: the handshake, invokes that wait
 * and that die with the host, restarts with backoff on the injected clock, the end of a backoff streak,
 * a host that never gets ready, and messages that are not of the protocol.
 */
import { describe, expect, it } from 'vitest';
import type { HostMessage, ShellMessage } from '../../common/host-protocol.ts';
import { ManualClock } from '../../test/helpers/manual-clock.ts';
import {
  EngineHostClient,
  type HostChild,
  INVOKE_TIMEOUT_MS,
  READY_TIMEOUT_MS,
  RESTART_FIRST_MS,
  RESTART_MAX_MS,
  restartDelayMs,
  STABLE_MS,
  STOP_GRACE_MS,
} from './engine-host-client.ts';
import type { EngineHostState } from './engine-line.ts';

class FakeChild implements HostChild {
  readonly posted: ShellMessage[] = [];
  killed = false;
  #message: ((m: unknown) => void) | null = null;
  #exit: ((code: number | null) => void)[] = [];
  post(message: ShellMessage): void {
    this.posted.push(message);
  }
  onMessage(listener: (m: unknown) => void): void {
    this.#message = listener;
  }
  onExit(listener: (code: number | null) => void): void {
    this.#exit.push(listener);
  }
  kill(): void {
    this.killed = true;
    this.exit(null);
  }
  say(m: HostMessage | Record<string, unknown>): void {
    this.#message?.(m);
  }
  exit(code: number | null): void {
    for (const l of this.#exit.splice(0)) l(code);
  }
  invokes() {
    return this.posted.filter((m) => m.type === 'invoke');
  }
}

function setup() {
  const clock = new ManualClock();
  const children: FakeChild[] = [];
  const logs: string[] = [];
  const states: EngineHostState[] = [];
  const client = new EngineHostClient({
    spawn: () => {
      const c = new FakeChild();
      children.push(c);
      return c;
    },
    init: { settingsDir: 'settings', version: '1.0.0', systemLanguages: ['en-US'] },
    clock,
    log: (_level, msg) => logs.push(msg),
  });
  client.on('state', (s) => states.push(s));
  const last = () => children[children.length - 1] as FakeChild;
  /** The live child says it listens and is ready (as serve.ts does). */
  const up = () => {
    last().say({ type: 'listening' });
    last().say({ type: 'ready' });
  };
  return { clock, children, logs, states, client, last, up };
}

describe('EngineHostClient', () => {
  it('gives every host the forwarding secrets after its init, and a change at once', () => {
    const t = setup();
    const secrets = () => t.last().posted.filter((m) => m.type === 'secrets');
    t.client.setSecrets({ phone: { token: 'tk_one' } });
    t.client.start();
    // Not before the host listens (it would be lost), and right after init.
    expect(secrets()).toEqual([]);
    t.up();
    expect(
      t
        .last()
        .posted.map((m) => m.type)
        .slice(0, 2),
    ).toEqual(['init', 'secrets']);
    expect(secrets()).toEqual([{ type: 'secrets', secrets: { phone: { token: 'tk_one' } } }]);
    t.client.setSecrets({ phone: { token: 'tk_two' } });
    expect(secrets().at(-1)).toEqual({ type: 'secrets', secrets: { phone: { token: 'tk_two' } } });
    // A restarted host gets the newest set.
    t.last().exit(1);
    t.clock.advance(RESTART_FIRST_MS);
    t.up();
    expect(t.children).toHaveLength(2);
    expect(secrets()).toEqual([{ type: 'secrets', secrets: { phone: { token: 'tk_two' } } }]);
  });

  it('sends init only once the host listens, and invokes only once it is ready', async () => {
    const t = setup();
    t.client.start();
    expect(t.last().posted).toEqual([]);
    const answer = t.client.invoke('app:info', []);
    t.last().say({ type: 'listening' });
    expect(t.last().posted).toEqual([
      {
        type: 'init',
        settingsDir: 'settings',
        version: '1.0.0',
        systemLanguages: ['en-US'],
        windowOpen: false,
      },
      // The forwarding secrets follow init at once (none set here).
      { type: 'secrets', secrets: {} },
    ]);
    expect(t.last().invokes()).toEqual([]);
    t.last().say({ type: 'ready' });
    const [sent] = t.last().invokes();
    expect(sent).toMatchObject({ channel: 'app:info', args: [] });
    t.last().say({ type: 'reply', id: sent?.id ?? -1, reply: { ok: true, json: '{"version":"1.0.0"}' } });
    await expect(answer).resolves.toEqual({ ok: true, json: '{"version":"1.0.0"}' });
    expect(t.client.state).toEqual({ kind: 'running' });
  });

  it('fails an invoke the dead host never answered, and restarts it after the backoff', async () => {
    const t = setup();
    t.client.start();
    t.up();
    const lost = t.client.invoke('kubectl:use-context', ['lab']);
    t.last().exit(1);
    await expect(lost).resolves.toEqual({
      ok: false,
      error: {
        kind: 'disconnected',
        message: 'The GPU Fleet engine stopped before it answered; it is restarting.',
      },
    });
    expect(t.client.state).toMatchObject({ kind: 'restarting', restarts: 1, exitCode: 1 });
    expect(t.children).toHaveLength(1);
    t.clock.advance(RESTART_FIRST_MS - 1);
    expect(t.children).toHaveLength(1);
    t.clock.advance(1);
    expect(t.children).toHaveLength(2);
    expect(t.client.state).toEqual({ kind: 'starting', restarts: 1 });
    // Not sent again to the new host: it may have acted before the old one died.
    t.up();
    expect(t.last().invokes()).toEqual([]);
    expect(t.client.state).toEqual({ kind: 'running' });
  });

  it('holds invokes while restarting and sends them to the new host', async () => {
    const t = setup();
    t.client.start();
    t.up();
    t.last().exit(null);
    const waiting = t.client.invoke('fleet:snapshot', []);
    t.clock.advance(RESTART_FIRST_MS);
    t.up();
    const [sent] = t.last().invokes();
    expect(sent).toMatchObject({ channel: 'fleet:snapshot' });
    t.last().say({ type: 'reply', id: sent?.id ?? -1, reply: { ok: true, json: 'null' } });
    await expect(waiting).resolves.toEqual({ ok: true, json: 'null' });
  });

  it('doubles the wait for each quick exit in a row, up to the cap, and starts over after a stable run', () => {
    expect([1, 2, 3, 4].map(restartDelayMs)).toEqual([500, 1000, 2000, 4000]);
    expect(restartDelayMs(100)).toBe(RESTART_MAX_MS);
    const t = setup();
    t.client.start();
    for (let n = 1; n <= 3; n++) {
      t.up();
      t.last().exit(1);
      expect(t.client.state).toMatchObject({ kind: 'restarting', restarts: n });
      t.clock.advance(restartDelayMs(n));
    }
    t.up();
    t.clock.advance(STABLE_MS);
    t.last().exit(1);
    expect(t.client.state).toMatchObject({ kind: 'restarting', restarts: 1 });
  });

  it('kills a host that does not get ready in time, and restarts it', () => {
    const t = setup();
    t.client.start();
    t.last().say({ type: 'listening' });
    t.clock.advance(READY_TIMEOUT_MS);
    expect(t.children[0]?.killed).toBe(true);
    expect(t.client.state).toMatchObject({ kind: 'restarting', restarts: 1, exitCode: null });
  });

  it('answers an invoke the host sits on with a timeout sentence', async () => {
    const t = setup();
    t.client.start();
    t.up();
    const slow = t.client.invoke('node:detail', ['lab', 'omen']);
    t.clock.advance(INVOKE_TIMEOUT_MS);
    await expect(slow).resolves.toEqual({
      ok: false,
      error: { kind: 'timeout', message: 'The GPU Fleet engine did not answer in 60 s.' },
    });
  });

  it('drops messages that are not of the protocol, and logs them rarely', () => {
    const t = setup();
    const pushes: string[] = [];
    t.client.on('push', (channel) => pushes.push(channel));
    t.client.start();
    t.up();
    for (let i = 0; i < 8; i++) t.last().say({ type: 'push', channel: 'not:a-channel', json: '{}' });
    t.last().say({ type: 'push', channel: 'fleet:snapshot', json: 42 });
    t.last().say({ type: 'tray', fleet: { contexts: 'many' } });
    t.last().say({ type: 'push', channel: 'app:notice', json: '{"level":"info","message":"m"}' });
    expect(pushes).toEqual(['app:notice']);
    // 10 dropped: logged at the 1st, 2nd, 4th and 8th.
    expect(t.logs.filter((l) => l.startsWith('dropped a message'))).toHaveLength(4);
  });

  it('a listener that throws is logged and does not stop the others', () => {
    const t = setup();
    const seen: string[] = [];
    t.client.on('push', () => {
      throw new Error('boom');
    });
    t.client.on('push', (channel) => seen.push(channel));
    t.client.start();
    t.up();
    t.last().say({ type: 'push', channel: 'app:notice', json: '{}' });
    expect(seen).toEqual(['app:notice']);
    expect(t.logs).toContain("handling the engine host's push failed");
  });

  it('stop asks the host to save and exit, kills it after the grace, and never restarts it', async () => {
    const t = setup();
    t.client.start();
    t.up();
    const stopped = t.client.stop();
    expect(t.last().posted.at(-1)).toEqual({ type: 'stop' });
    t.clock.advance(STOP_GRACE_MS);
    await stopped;
    expect(t.children[0]?.killed).toBe(true);
    t.clock.advance(RESTART_MAX_MS * 2);
    expect(t.children).toHaveLength(1);
    expect(t.client.state).toEqual({ kind: 'stopped' });
    await expect(t.client.invoke('app:info', [])).resolves.toMatchObject({
      ok: false,
      error: { kind: 'disconnected' },
    });
  });

  it('tells every host that starts whether a window is open', () => {
    const t = setup();
    t.client.start();
    t.client.setWindowOpen(true);
    expect(t.last().posted.filter((m) => m.type === 'window')).toEqual([]);
    t.up();
    expect(t.last().posted[0]).toMatchObject({ type: 'init', windowOpen: true });
    expect(t.last().posted.filter((m) => m.type === 'window')).toEqual([{ type: 'window', open: true }]);
    t.last().exit(1);
    t.clock.advance(RESTART_FIRST_MS);
    t.up();
    expect(t.last().posted[0]).toMatchObject({ type: 'init', windowOpen: true });
    expect(t.last().posted.filter((m) => m.type === 'window')).toEqual([{ type: 'window', open: true }]);
    t.client.setWindowOpen(false);
    expect(t.last().posted.at(-1)).toEqual({ type: 'window', open: false });
  });

  it('stop kills at once a host that never said it listens (it could not hear a stop)', async () => {
    const t = setup();
    t.client.start();
    await t.client.stop();
    expect(t.children[0]?.killed).toBe(true);
    expect(t.children[0]?.posted).toEqual([]);
  });

  it('saves the window bounds once the host is up', () => {
    const t = setup();
    const bounds = { x: 1, y: 2, width: 800, height: 600, maximized: false };
    t.client.start();
    t.client.saveWindow(bounds);
    expect(t.last().posted.filter((m) => m.type === 'save-window')).toEqual([]);
    t.up();
    expect(t.last().posted.filter((m) => m.type === 'save-window')).toEqual([
      { type: 'save-window', window: bounds },
    ]);
  });
});
