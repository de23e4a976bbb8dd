/**
 * Runs in a child the Electron double forks as a utility process, before the module itself: Electron's
 * `process.parentPort` over Node's IPC channel (messages arrive as `{ data }`, as Electron's MessageEvent),
 * and, when the double follows a test's ManualClock, a ManualClock of this process under INJECTED_CLOCK
 * that the double moves along with the test's (see ElectronDouble.followClock). It also answers
 * `require('electron')` as Electron does in a utility process (`process.type` 'utility'): with the
 * utility module, which has no `app`, `ipcMain`, `ipcRenderer` or `shell` (only `net` and
 * `systemPreferences`, which the host does not use, so the double has neither). Without this hook the
 * host bundle would load the real 'electron' package, which in plain Node throws.
 */
import { EventEmitter } from 'node:events';
import Module from 'node:module';
import { INJECTED_CLOCK } from '../../main/kube/injected-clock.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { CLOCK_ENV, isClockMessage } from './utility-clock.ts';

const port = Object.assign(new EventEmitter(), {
  postMessage: (message: unknown) => {
    if (process.connected) process.send?.(message);
  },
  start: () => undefined,
});
Reflect.set(process, 'parentPort', port);
Reflect.set(process, 'type', 'utility');

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };
const utilityElectron = Object.freeze({});
const load = moduleWithLoad._load;
moduleWithLoad._load = function electronForUtility(request, parent, isMain) {
  if (request === 'electron' || request === 'electron/utility') return utilityElectron;
  return load.call(this, request, parent, isMain);
};

const start = process.env[CLOCK_ENV];
const clock = start ? new ManualClock(Number(start)) : null;
if (clock) Reflect.set(globalThis, INJECTED_CLOCK, clock);

process.on('message', (message: unknown) => {
  if (isClockMessage(message)) {
    if (clock && message.now > clock.now()) clock.advance(message.now - clock.now());
    return;
  }
  port.emit('message', { data: message, ports: [] });
});
// Electron ends utility processes with the app: here, when the parent's end of the channel goes.
process.on('disconnect', () => process.exit(0));
