/**
 * IPC routes for every channel of the contract: the sender must be our window's webContents AND its
 * top frame showing our origin (a subframe or a page navigated elsewhere is refused); the engine host
 * validates the arguments. A handler answers an `InvokeReply` and never throws, so a failure reaches the
 * window with its kind. `renderer:ready` releases the pushes held for the window.
 */
import { ipcMain } from 'electron';
import { INVOKE_CHANNELS, type InvokeReply, RENDERER_READY } from '../../common/ipc.ts';
import { type FrameLike, isOurFrame } from './app-origin.ts';
import type { WindowManager } from './window.ts';

/** The part of an IPC event the sender check reads (Electron's IpcMainEvent and IpcMainInvokeEvent). */
interface SenderEvent {
  sender: { id: number };
  senderFrame: FrameLike | null;
}

/** Where an allowed invoke goes: the engine host, which validates it and answers (never rejects). */
export type Invoke = (channel: string, args: unknown[]) => Promise<InvokeReply>;

export function setupIpc(invoke: Invoke, windows: WindowManager): void {
  const fromOurWindow = (event: SenderEvent): boolean =>
    event.sender.id === windows.webContentsId() && isOurFrame(event.senderFrame, windows.origin);
  ipcMain.on(RENDERER_READY, (event) => {
    if (fromOurWindow(event)) windows.rendererReady(event.sender.id);
  });
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]): Promise<InvokeReply> => {
      if (!fromOurWindow(event))
        return { ok: false, error: { kind: 'refused', message: `refused ${channel}: not our window` } };
      return invoke(channel, args);
    });
  }
}
