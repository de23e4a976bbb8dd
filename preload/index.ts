/**
 * Exposes `window.fleet` to the sandboxed renderer: invoke on the contract's channels and listen to
 * its push events. Nothing else crosses; the channel lists come from common/ipc.ts. A rejected invoke
 * carries `{kind, message}` (see common/errors.ts).
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import { BRIDGE_ENGLISH } from '../common/bridge-words.ts';
import type { ErrorInfo } from '../common/errors.ts';
import { type FleetApi, INVOKE_CHANNELS, PUSH_CHANNELS, RENDERER_READY, settleReply } from '../common/ipc.ts';

const api: FleetApi = {
  invoke(channel, ...args) {
    if (!INVOKE_CHANNELS.includes(channel))
      return Promise.reject({
        kind: 'refused',
        message: BRIDGE_ENGLISH.unknownChannel(channel),
        words: { code: 'bridgeUnknownChannel', channel },
      } satisfies ErrorInfo);
    // The host answers an InvokeReply; a failure rejects with its {kind, message} as plain data.
    return ipcRenderer.invoke(channel, ...args).then(settleReply) as never;
  },
  on(channel, listener) {
    if (!PUSH_CHANNELS.includes(channel)) throw new Error(`unknown event ${channel}`);
    // Payloads are JSON text from our own main process (most encoded by the engine host), built from
    // the contract's types; text that does not parse is dropped rather than handed on.
    const wrapped = (_event: IpcRendererEvent, json: unknown) => {
      if (typeof json !== 'string') return;
      let payload: unknown;
      try {
        payload = JSON.parse(json);
      } catch {
        return;
      }
      listener(payload as Parameters<typeof listener>[0]);
    };
    ipcRenderer.on(channel, wrapped);
    return () => ipcRenderer.removeListener(channel, wrapped);
  },
  // Main holds its pushes to this window until the page has subscribed and says so.
  ready() {
    ipcRenderer.send(RENDERER_READY);
  },
};

contextBridge.exposeInMainWorld('fleet', api);
