/**
 * `gpu-fleet serve` needs the built window (.vite/renderer/main_window). Right after `npm ci` it is not
 * there yet (prepare builds only the CLI), so the first serve builds it, saying so, before it prints an
 * address; where it cannot be built (no devDependencies, a failed build) serve refuses in one sentence
 * instead of printing an address that answers 503.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './io.ts';

export interface WindowBuild {
  /** The built renderer folder. */
  dir: string;
  /** The package root, where scripts/forge-vite-build.mjs lives. */
  root: string;
  /** Runs the build; the exit status (injected in tests). */
  run?: (root: string) => number | null;
}

const runBuild = (root: string): number | null =>
  spawnSync(process.execPath, [path.join(root, 'scripts/forge-vite-build.mjs'), 'renderer'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  }).status;

/** Ensures the window is built; `say` tells the user a first build is running. */
export function ensureWindowBuilt(b: WindowBuild, say: (line: string) => void): void {
  const index = path.join(b.dir, 'index.html');
  if (existsSync(index)) return;
  const script = path.join(b.root, 'scripts/forge-vite-build.mjs');
  const vite = path.join(b.root, 'node_modules/vite/package.json');
  if (!existsSync(script) || !existsSync(vite))
    throw new CliError(
      'the GPU Fleet window is not built and cannot be built here (no Vite: devDependencies omitted); run `npm ci && npm run build:renderer` in the package folder',
    );
  say('Building the GPU Fleet window (first run, a few seconds)…');
  const status = (b.run ?? runBuild)(b.root);
  if (status !== 0 || !existsSync(index))
    throw new CliError(
      `the GPU Fleet window could not be built (the renderer build exited ${status ?? 'on a signal'}); run \`npm run build:renderer\` to see why`,
    );
}
