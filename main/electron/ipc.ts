/** IPC routes: every handler checks that the sender is our window and validates its arguments. */
import { type IpcMainInvokeEvent, ipcMain } from 'electron';
import { type AppInfo, ARG_SCHEMAS } from '../../common/ipc.ts';
import { check } from '../../common/validate.ts';
import type { WindowManager } from './window.ts';

export function setupIpc(windows: WindowManager, info: { version: string }): void {
  const fromOurWindow = (event: IpcMainInvokeEvent): boolean => event.sender.id === windows.webContentsId();
  ipcMain.handle('app:info', (event, ...args: unknown[]): AppInfo => {
    if (!fromOurWindow(event)) throw new Error('refused: not our window');
    const parsed = check(ARG_SCHEMAS['app:info'], args);
    if (!parsed.ok) throw new Error(parsed.error);
    return { version: info.version, mode: 'electron', demo: false, noKubeconfig: false, notices: [] };
  });
}
