/** Row 2's flip driver (the `flapping` scenario's pattern, over HTTP control) and small waits. */
import type { RemoteSim } from './sim-remote.ts';

const FLIPPING = ['node-0001', 'node-0002', 'node-0003', 'node-0004'];

/** Flips GPU nodes like the `flapping` scenario: down, up, next node… every `everyMs` until stopped. */
export function startFlipping(sim: RemoteSim, everyMs: number): () => Promise<void> {
  let tick = 0;
  let busy: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    const name = FLIPPING[Math.floor(tick / 2) % FLIPPING.length] as string;
    const status = tick % 2 === 1 ? 'True' : 'False';
    tick++;
    busy = busy.then(() =>
      sim.control('setNodeReady', name, status, status === 'True' ? 'KubeletReady' : 'KubeletNotReady'),
    );
  }, everyMs);
  return async () => {
    clearInterval(timer);
    await busy;
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until nothing is `busy()` and `count` has not moved for 3 s (at most 60 s). */
export async function settled(count: () => number, busy: () => boolean): Promise<void> {
  let last = count();
  let still = 0;
  for (let i = 0; i < 600 && still < 3000; i++) {
    await sleep(100);
    still = count() === last && !busy() ? still + 100 : 0;
    last = count();
  }
}
