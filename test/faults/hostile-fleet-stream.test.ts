/**
 * Fault matrix, the fleet stream's own inputs: a browser's `Last-Event-ID` (any bytes a client sends) on
 * the bridge's event stream, and the messages across the desktop app's process boundary, in both
 * directions (common/host-protocol.ts). Nothing a peer sends throws, ends the process or is acted on
 * unless it is of the protocol; a proper message afterwards still works.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOST_LOG_LINE_MAX, type HostMessage, type ShellMessage } from '../../common/host-protocol.ts';
import { PUSH_CHANNELS } from '../../common/ipc.ts';
import { EngineHostClient, type HostChild } from '../../main/electron/engine-host-client.ts';
import { serveEngineHost } from '../../main/engine-host/serve.ts';
import { type InvokeHandlers, PushHub } from '../../main/fleet/host.ts';
import { SnapshotPublisher } from '../../main/fleet/snapshot-publisher.ts';
import { cookieName } from '../../main/web/guard.ts';
import { startWebBridge, type WebBridge } from '../../main/web/server.ts';
import { context, fleet, inventory, node } from '../../renderer/fixtures/homelab.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function bridge(): Promise<WebBridge> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-stream-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>GPU Fleet</title>');
  const hub = new PushHub();
  const publisher = new SnapshotPublisher((c, p) => hub.emit(c, p), 'epoch1');
  const snapshot = fleet([context('lab', inventory([node('gpu-a')]))], 'lab');
  publisher.publish(snapshot);
  const handlers = { 'fleet:snapshot': () => publisher.publish(snapshot) } as unknown as InvokeHandlers;
  const b = await startWebBridge({
    host: { handlers, onPush: (l) => hub.on(l) },
    staticDir: dir,
    clock: new ManualClock(),
  });
  cleanup(() => b.close());
  return b;
}

/**
 * Opens the event stream with raw header bytes: the event name of its first fleet frame, or the status
 * line of a refusal; rejects when neither comes within `waitMs`.
 */
function firstFleetFrame(
  b: WebBridge,
  lastEventIdLines: string,
  waitMs = 5000,
  target = '/api/events',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(b.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no fleet frame; got: ${text.slice(0, 300)}`));
    }, waitMs);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const m = /event: (fleet:[a-z]+)/.exec(text);
      if (m?.[1] || /^HTTP\/1\.1 [45]/.test(text)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(m?.[1] ?? text.slice(0, 12));
      }
    });
    socket.on('error', () => undefined);
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nCookie: ${cookieName(b.port)}=${b.token}\r\n${lastEventIdLines}\r\n`,
    );
  });
}

describe('a hostile Last-Event-ID on the event stream', () => {
  it.each([
    ['a huge one', `Last-Event-ID: ${'9'.repeat(8000)}\r\n`],
    ['prototype names', 'Last-Event-ID: __proto__:constructor\r\n'],
    ['a seq past the safe integers', 'Last-Event-ID: epoch1:99999999999999999999\r\n'],
    ['a negative seq', 'Last-Event-ID: epoch1:-1\r\n'],
    ['bytes that are not UTF-8', 'Last-Event-ID: \xff\xfe:1\r\n'],
    ['two of them', 'Last-Event-ID: epoch1:1\r\nLast-Event-ID: other:1\r\n'],
    ['an empty one', 'Last-Event-ID: \r\n'],
  ])('%s: a whole snapshot first, as for any stream it cannot place', async (_what, lines) => {
    const b = await bridge();
    expect(await firstFleetFrame(b, lines)).toBe('fleet:snapshot');
    expect(await firstFleetFrame(b, '')).toBe('fleet:mark');
  });

  it('control characters: refused by the HTTP parser (400), and the stream still serves', async () => {
    const b = await bridge();
    expect(await firstFleetFrame(b, 'Last-Event-ID: epoch1:\u0001\u0007\r\n')).toBe('HTTP/1.1 400');
    expect(await firstFleetFrame(b, '')).toBe('fleet:mark');
  });

  it('the page’s own reconnection names its place as ?lastEventId=: an unknown one gets a snapshot, the current one nothing', async () => {
    const b = await bridge();
    const at = (id: string) => `/api/events?lastEventId=${encodeURIComponent(id)}`;
    expect(await firstFleetFrame(b, '', 5000, at('__proto__:constructor'))).toBe('fleet:snapshot');
    expect(await firstFleetFrame(b, '', 5000, at('other-epoch:1'))).toBe('fleet:snapshot');
    await expect(firstFleetFrame(b, '', 500, at('epoch1:1'))).rejects.toThrow(/no fleet frame/);
  });

  it('the current id still gets nothing more: the hostile ones changed no state', async () => {
    const b = await bridge();
    await firstFleetFrame(b, 'Last-Event-ID: __proto__:constructor\r\n');
    await expect(firstFleetFrame(b, 'Last-Event-ID: epoch1:1\r\n', 500)).rejects.toThrow(/no fleet frame/);
  });
});

/** A shell-side child whose messages the test writes. */
class ScriptedChild implements HostChild {
  readonly posted: ShellMessage[] = [];
  #message: (m: unknown) => void = () => undefined;
  post(m: ShellMessage): void {
    this.posted.push(m);
  }
  onMessage(l: (m: unknown) => void): void {
    this.#message = l;
  }
  onExit(): void {}
  kill(): void {}
  say(m: unknown): void {
    this.#message(m);
  }
}

/** Values that look like protocol messages but are not, beside anything at all. */
const nearMiss = fc.oneof(
  fc.anything(),
  fc.record({
    type: fc.constantFrom(
      'push',
      'tray',
      'notify',
      'reply',
      'shell',
      'log',
      'stats',
      '__proto__',
      'constructor',
    ),
    channel: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toString', 'fleet:snapshot')),
    json: fc.anything(),
    id: fc.oneof(fc.integer(), fc.double(), fc.string()),
    model: fc.anything(),
    notice: fc.anything(),
    line: fc.oneof(fc.string(), fc.string({ minLength: 20_000, maxLength: 20_001 })),
  }),
);

describe('messages from a confused engine host', () => {
  it('never throw in the shell and are never acted on; a proper one afterwards still is', () => {
    const child = new ScriptedChild();
    const logs: string[] = [];
    const client = new EngineHostClient({
      spawn: () => child,
      init: { settingsDir: 'settings', version: '1', systemLanguages: ['en'] },
      clock: new ManualClock(),
      log: (_l, msg) => logs.push(msg),
    });
    const heard: string[] = [];
    // What does get through is whole: the shell's listeners read these fields without checking.
    client.on('push', (channel, json) => {
      heard.push('push');
      expect(PUSH_CHANNELS).toContain(channel);
      expect(typeof json).toBe('string');
    });
    client.on('tray', (model) => {
      heard.push('tray');
      expect(Array.isArray(model.menu) && typeof model.tooltip === 'string').toBe(true);
    });
    client.on('notify', (notice, ctx) => {
      heard.push('notify');
      expect([typeof notice.title, typeof notice.body, typeof ctx]).toEqual(['string', 'string', 'string']);
    });
    client.on('hostLog', (line) => {
      expect(typeof line === 'string' && line.length <= HOST_LOG_LINE_MAX).toBe(true);
    });
    client.start();
    child.say({ type: 'listening' } satisfies HostMessage);
    child.say({ type: 'ready' } satisfies HostMessage);
    fc.assert(
      fc.property(nearMiss, (m) => {
        child.say(m);
      }),
      { numRuns: 500 },
    );
    expect(client.state).toEqual({ kind: 'running' });
    heard.length = 0;
    child.say({ type: 'push', channel: 'app:notice', json: '{}' } satisfies HostMessage);
    expect(heard).toEqual(['push']);
  });
});

describe('messages from a confused shell', () => {
  it('never throw in the engine host, never end it, and are answered only when of the protocol', () => {
    const posted: HostMessage[] = [];
    const exits: number[] = [];
    let deliver: (m: unknown) => void = () => undefined;
    serveEngineHost(
      { post: (m) => posted.push(m), onMessage: (l) => (deliver = l) },
      { env: {}, exit: (code) => exits.push(code), clock: new ManualClock() },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            type: fc.constantFrom('init', 'invoke', 'stop', 'stats', 'window', 'save-window', '__proto__'),
            id: fc.anything(),
            channel: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'app:info')),
            args: fc.anything(),
            settingsDir: fc.anything(),
            open: fc.anything(),
            extra: fc.anything(),
          }),
        ),
        (m) => {
          deliver(m);
        },
      ),
      { numRuns: 500 },
    );
    expect(exits).toEqual([]);
    // Only log lines (what was dropped) and the first `listening`; no reply, no start.
    expect(new Set(posted.map((m) => m.type))).toEqual(new Set(['listening', 'log']));
  });
});
