/**
 * Runs in a child the Electron double forks as a utility process, before the module itself: Electron's
 * `process.parentPort` over Node's IPC channel (messages arrive as `{ data }`, as Electron's MessageEvent),
 * and, when the double follows a test's ManualClock, a ManualClock of this process under INJECTED_CLOCK
 * that the double moves along with the test's (see ElectronDouble.followClock).
 */
import { EventEmitter } from 'node:events';
import { INJECTED_CLOCK } from '../../main/shell/injected-clock.ts';
import { ManualClock } from '../helpers/manual-clock.ts';
import { CLOCK_ENV, isClockMessage } from './utility-clock.ts';

const port = Object.assign(new EventEmitter(), {
  postMessage: (message: unknown) => {
    if (process.connected) process.send?.(message);
  },
  start: () => undefined,
});
Reflect.set(process, 'parentPort', port);

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
