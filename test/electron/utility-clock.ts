/** How the Electron double moves a utility child's virtual clock with the test's (utility-child.ts). */
export const CLOCK_ENV = 'GPU_FLEET_DOUBLE_CLOCK';

export interface ClockMessage {
  electronDoubleClock: true;
  now: number;
}

export function isClockMessage(m: unknown): m is ClockMessage {
  return typeof m === 'object' && m !== null && Reflect.get(m, 'electronDoubleClock') === true;
}
