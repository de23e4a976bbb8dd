// The real kubectl for tests that drive the simulator with it: where it is installed (undefined when it is
// not, so the tests skip) and a runner bound to one kubeconfig and cache directory.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

/** Runs kubectl with `dir()/config` as kubeconfig and `dir()/cache` as cache; resolves its stdout. */
export function kubectlIn(dir: () => string): (...args: string[]) => Promise<string> {
  return async (...args) =>
    (
      await run(KUBECTL as string, [
        '--kubeconfig',
        join(dir(), 'config'),
        '--cache-dir',
        join(dir(), 'cache'),
        ...args,
      ])
    ).stdout;
}
