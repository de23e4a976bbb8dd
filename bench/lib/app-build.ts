/**
 * Row 4c loads the built desktop app (.vite/build/main.cjs, which forks .vite/build/engine-host.cjs) under
 * the Electron double: in a fresh checkout there is none (the row failed with "shell-probe.ts exited with
 * 1", the bundle not found), and an old one would measure old code. Built here, main and preload together
 * (they share .vite/build, which a build of either empties), when missing or older than a source.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const OUTPUTS = ['main.cjs', 'engine-host.cjs', 'preload.cjs'].map((f) => path.join(ROOT, '.vite/build', f));
/** What the main, engine-host and preload bundles are built from. */
const SOURCES = ['main', 'common', 'sim', 'preload'];
const FILES = [
  'vite.main.config.ts',
  'vite.host.config.ts',
  'vite.preload.config.ts',
  'forge.config.ts',
  'package.json',
];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export function appBuildIsStale(): boolean {
  if (!OUTPUTS.every((f) => existsSync(f))) return true;
  const built = Math.min(...OUTPUTS.map((f) => statSync(f).mtimeMs));
  const newest = Math.max(
    ...SOURCES.map((d) => newestMtime(path.join(ROOT, d))),
    ...FILES.map((f) => statSync(path.join(ROOT, f)).mtimeMs),
  );
  return newest > built;
}

/** Builds main, the engine host and preload; throws with one sentence when the build fails. */
export function buildApp(): void {
  const r = spawnSync(process.execPath, ['scripts/forge-vite-build.mjs', 'main,preload'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0)
    throw new Error(
      `the app build (node scripts/forge-vite-build.mjs main,preload) failed with exit ${r.status}`,
    );
}
