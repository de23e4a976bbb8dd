/** IPC routes for every channel of the contract: the sender must be our window; arguments are validated. */
import { type IpcMainInvokeEvent, ipcMain } from 'electron';
import { INVOKE_CHANNELS } from '../../common/ipc.ts';
import { dispatchInvoke, type FleetHost } from '../fleet/host.ts';
import type { WindowManager } from './window.ts';

export function setupIpc(
  host: FleetHost,
  windows: WindowManager,
  afterInvoke: (channel: string) => void,
): () => void {
  const fromOurWindow = (event: IpcMainInvokeEvent): boolean => event.sender.id === windows.webContentsId();
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      if (!fromOurWindow(event)) throw new Error(`refused ${channel}: not our window`);
      const result = await dispatchInvoke(host.handlers, channel, args);
      if (!result.ok) throw new Error(result.error);
      afterInvoke(channel);
      return result.value;
    });
  }
  return host.onPush((channel, payload) => windows.send(channel, payload));
}
