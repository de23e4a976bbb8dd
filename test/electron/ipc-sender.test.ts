/**
 * The IPC sender check from source (the bundle tests cover it too, but mutation testing can only see
 * source): every invoke channel answers our window's webContents when its top frame shows our origin,
 * and refuses any other sender, a subframe, or a frame of another origin; refused calls reach no
 * handler. `renderer:ready` releases held pushes only for our window. `electron` is a small mock; the
 * invokes that pass go to `answerInvoke`, as the engine host answers them.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS, settleReply } from '../../common/ipc.ts';
import { answerInvoke, type InvokeHandlers } from '../../main/fleet/host.ts';

interface Frame {
  url: string;
  parent: Frame | null;
}
type IpcEvent = { sender: { id: number }; senderFrame: Frame | null };
type Handler = (event: IpcEvent, ...args: unknown[]) => unknown;
const registered = vi.hoisted(() => new Map<string, Handler>());
const listeners = vi.hoisted(() => new Map<string, Handler>());
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => registered.set(channel, handler),
    removeHandler: (channel: string) => registered.delete(channel),
    on: (channel: string, listener: Handler) => listeners.set(channel, listener),
  },
}));
const { setupIpc } = await import('../../main/electron/ipc.ts');

const OURS = 7;
const ORIGIN = 'gpu-fleet://app';
const top = (url = `${ORIGIN}/index.html`): Frame => ({ url, parent: null });
let windowId: number | null = OURS;
let readied: number[] = [];
let calls: string[] = [];

const handlers = new Proxy({} as InvokeHandlers, {
  get: (_t, channel: string) => () => {
    calls.push(channel);
    return `answer of ${channel}`;
  },
});
const viaHost = (h: InvokeHandlers) => (channel: string, args: unknown[]) => answerInvoke(h, channel, args);

beforeEach(() => {
  registered.clear();
  windowId = OURS;
  calls = [];
  readied = [];
  listeners.clear();
  setupIpc(viaHost(handlers), {
    ...windowOf(OURS),
    webContentsId: () => windowId,
    rendererReady: (id) => readied.push(id),
  });
});

function windowOf(id: number) {
  return {
    show: () => undefined,
    webContentsId: () => id,
    send: () => undefined,
    relay: () => undefined,
    restoreBounds: () => undefined,
    rendererReady: (_id: number) => undefined,
    origin: ORIGIN,
  };
}

const invokeFrom = (channel: string, event: IpcEvent, ...args: unknown[]) => {
  const handler = registered.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  // As the preload does: the handler answers an InvokeReply, settled into a value or {kind, message}.
  return Promise.resolve()
    .then(() => handler(event, ...args))
    .then(settleReply);
};
const invoke = (channel: string, senderId: number, ...args: unknown[]) =>
  invokeFrom(channel, { sender: { id: senderId }, senderFrame: top() }, ...args);

describe('IPC sender check', () => {
  it('routes every channel', () => {
    expect([...registered.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('answers our window', async () => {
    await expect(invoke('app:info', OURS)).resolves.toBe('answer of app:info');
    expect(calls).toEqual(['app:info']);
  });

  it('answers a reply, never a thrown error, so the window learns the kind', async () => {
    await expect(registered.get('app:info')?.({ sender: { id: OURS }, senderFrame: top() })).resolves.toEqual(
      {
        ok: true,
        json: '"answer of app:info"',
      },
    );
    await expect(
      registered.get('app:info')?.({ sender: { id: OURS + 1 }, senderFrame: top() }),
    ).resolves.toEqual({
      ok: false,
      error: { kind: 'refused', message: 'refused app:info: not our window' },
    });
  });

  it.each(INVOKE_CHANNELS)(
    'refuses %s from another webContents, before any handler runs',
    async (channel) => {
      await expect(invoke(channel, OURS + 1)).rejects.toEqual({
        kind: 'refused',
        message: `refused ${channel}: not our window`,
      });
      expect(calls).toEqual([]);
    },
  );

  it.each([
    ['a subframe of our page', { url: `${ORIGIN}/index.html`, parent: top() }],
    ['a page of another origin', top('https://example.com/index.html')],
    ['a file:// page', top('file:///tmp/index.html')],
    ['a look-alike host', top('gpu-fleet://app.example.com/index.html')],
    ['no frame (it was destroyed)', null],
  ])('refuses our webContents when the sender is %s', async (_what, senderFrame) => {
    await expect(invokeFrom('app:info', { sender: { id: OURS }, senderFrame })).rejects.toEqual({
      kind: 'refused',
      message: 'refused app:info: not our window',
    });
    expect(calls).toEqual([]);
  });

  it('releases held pushes on renderer:ready from our window only', () => {
    const ready = listeners.get('renderer:ready');
    ready?.({ sender: { id: OURS + 1 }, senderFrame: top() });
    ready?.({ sender: { id: OURS }, senderFrame: top('https://example.com/') });
    expect(readied).toEqual([]);
    ready?.({ sender: { id: OURS }, senderFrame: top() });
    expect(readied).toEqual([OURS]);
  });

  it('refuses every sender while no window exists', async () => {
    windowId = null;
    await expect(invoke('app:info', OURS)).rejects.toEqual({
      kind: 'refused',
      message: 'refused app:info: not our window',
    });
    expect(calls).toEqual([]);
  });

  it('turns invalid arguments into an error without calling the handler', async () => {
    await expect(invoke('fleet:focus', OURS, 42)).rejects.toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/^fleet:focus: /),
    });
    expect(calls).toEqual([]);
  });

  it('keeps the kind of a failure a handler threw, and its sentence without any prefix', async () => {
    const failing = new Proxy({} as InvokeHandlers, {
      get: () => () => {
        throw Object.assign(new Error('The cluster rejected the credentials, or they have expired (401).'), {
          kind: 'unauthorized',
        });
      },
    });
    registered.clear();
    setupIpc(viaHost(failing), windowOf(OURS));
    await expect(invoke('writeback:install', OURS, 'sim-admin')).rejects.toEqual({
      kind: 'unauthorized',
      message: 'The cluster rejected the credentials, or they have expired (401).',
    });
    const plain = new Proxy({} as InvokeHandlers, {
      get: () => () => {
        throw new Error('context lab is not in your kubeconfig');
      },
    });
    registered.clear();
    setupIpc(viaHost(plain), windowOf(OURS));
    await expect(invoke('settings:get', OURS)).rejects.toEqual({
      kind: 'failed',
      message: 'context lab is not in your kubeconfig',
    });
  });
});
