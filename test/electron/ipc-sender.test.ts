/**
 * The IPC sender check from source (the bundle tests cover it too, but mutation testing can only see
 * source): every invoke channel answers our window's webContents and refuses any other sender, and
 * refused calls reach no handler. `electron` is the test double's module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../common/ipc.ts';
import type { FleetHost, InvokeHandlers, PushListener } from '../../main/fleet/host.ts';

type Handler = (event: { sender: { id: number } }, ...args: unknown[]) => unknown;
const registered = vi.hoisted(() => new Map<string, Handler>());
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => registered.set(channel, handler),
    removeHandler: (channel: string) => registered.delete(channel),
  },
}));
const { setupIpc } = await import('../../main/electron/ipc.ts');

const OURS = 7;
let windowId: number | null = OURS;
let calls: string[] = [];
let after: string[] = [];
let sent: { channel: string; payload: unknown }[] = [];
let push: PushListener = () => undefined;

const handlers = new Proxy({} as InvokeHandlers, {
  get: (_t, channel: string) => () => {
    calls.push(channel);
    return `answer of ${channel}`;
  },
});
const host: FleetHost = {
  handlers,
  onPush: (l) => {
    push = l;
    return () => undefined;
  },
};

beforeEach(() => {
  registered.clear();
  windowId = OURS;
  calls = [];
  after = [];
  sent = [];
  setupIpc(
    host,
    {
      show: () => undefined,
      webContentsId: () => windowId,
      send: (channel, payload) => sent.push({ channel, payload }),
    },
    (channel) => after.push(channel),
  );
});

const invoke = (channel: string, senderId: number, ...args: unknown[]) => {
  const handler = registered.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve().then(() => handler({ sender: { id: senderId } }, ...args));
};

describe('IPC sender check', () => {
  it('routes every channel', () => {
    expect([...registered.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('answers our window', async () => {
    await expect(invoke('app:info', OURS)).resolves.toBe('answer of app:info');
    expect(calls).toEqual(['app:info']);
    expect(after).toEqual(['app:info']);
  });

  it.each(INVOKE_CHANNELS)(
    'refuses %s from another webContents, before any handler runs',
    async (channel) => {
      await expect(invoke(channel, OURS + 1)).rejects.toThrow(`refused ${channel}: not our window`);
      expect(calls).toEqual([]);
      expect(after).toEqual([]);
    },
  );

  it('refuses every sender while no window exists', async () => {
    windowId = null;
    await expect(invoke('app:info', OURS)).rejects.toThrow('refused app:info: not our window');
    expect(calls).toEqual([]);
  });

  it('turns invalid arguments into an error without calling the handler or afterInvoke', async () => {
    await expect(invoke('fleet:focus', OURS, 42)).rejects.toThrow(/^fleet:focus: /);
    expect(calls).toEqual([]);
    expect(after).toEqual([]);
  });

  it('pushes host events to the window', () => {
    push('app:notice', { level: 'error', message: 'm' });
    expect(sent).toEqual([{ channel: 'app:notice', payload: { level: 'error', message: 'm' } }]);
  });
});
