/**
 * The directory of this package (where package.json and .vite/ live), found by walking up from this
 * module: the same answer from the TypeScript sources (main/cli/) and from the built CLI (dist/cli/).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How many parent directories are looked at before giving up (the sources are 2 deep, the bundle 2). */
const MAX_DEPTH = 6;

export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (let i = 0; i < MAX_DEPTH; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`GPU Fleet cannot find its package.json above ${path.dirname(from)}.`);
}
