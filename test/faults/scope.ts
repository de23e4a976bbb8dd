/** Cleanups registered during a test and run after it, last first (engines stop before their servers). */
import { afterEach } from 'vitest';

export type Cleanup = () => Promise<void> | void;

export function useCleanups(): (...fns: Cleanup[]) => void {
  let list: Cleanup[] = [];
  afterEach(async () => {
    const run = list.reverse();
    list = [];
    for (const c of run) await c();
  });
  return (...fns) => {
    list.push(...fns);
  };
}
