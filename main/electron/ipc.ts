/**
 * IPC routes for every channel of the contract: the sender must be our window; arguments are validated.
 * A handler answers an `InvokeReply` and never throws, so a failure reaches the window with its kind.
 */
import { type IpcMainInvokeEvent, ipcMain } from 'electron';
import { INVOKE_CHANNELS, type InvokeReply } from '../../common/ipc.ts';
import { dispatchInvoke, type FleetHost } from '../fleet/host.ts';
import type { WindowManager } from './window.ts';

export function setupIpc(
  host: FleetHost,
  windows: WindowManager,
  afterInvoke: (channel: string) => void,
): () => void {
  const fromOurWindow = (event: IpcMainInvokeEvent): boolean => event.sender.id === windows.webContentsId();
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]): Promise<InvokeReply> => {
      if (!fromOurWindow(event))
        return { ok: false, error: { kind: 'refused', message: `refused ${channel}: not our window` } };
      const result = await dispatchInvoke(host.handlers, channel, args);
      if (!result.ok) return { ok: false, error: { kind: result.kind, message: result.error } };
      afterInvoke(channel);
      return { ok: true, value: result.value };
    });
  }
  return host.onPush((channel, payload) => windows.send(channel, payload));
}
