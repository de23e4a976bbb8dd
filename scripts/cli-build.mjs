// Builds the `gpu-fleet` command (vite.cli.config.ts → dist/cli/) for the scripts that need it: `npm ci`
// (prepare), `npm start`, the test run and a first run of bin/gpu-fleet.mjs. "Stale" means a source file
// the CLI is built from (main/, common/, sim/, the config, package.json) is newer than dist/cli/entry.js.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_ENTRY = path.join(ROOT, 'dist/cli/entry.js');
const SOURCES = ['main', 'common', 'sim'];
const FILES = ['vite.cli.config.ts', 'package.json'];

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export function cliIsStale() {
  if (!existsSync(CLI_ENTRY)) return true;
  const built = statSync(CLI_ENTRY).mtimeMs;
  const newest = Math.max(
    ...SOURCES.map((d) => newestMtime(path.join(ROOT, d))),
    ...FILES.map((f) => statSync(path.join(ROOT, f)).mtimeMs),
  );
  return newest > built;
}

/** The Vite binary, or null where devDependencies are not installed (`npm ci --omit=dev`). */
export function viteBin() {
  try {
    const pkg = createRequire(path.join(ROOT, 'package.json')).resolve('vite/package.json');
    return path.join(path.dirname(pkg), 'bin/vite.js');
  } catch {
    return null;
  }
}

/** Runs the build; returns null on success, else one sentence saying why it did not. */
export function buildCli({ quiet = false } = {}) {
  const vite = viteBin();
  if (vite === null)
    return 'Vite is not installed (devDependencies were omitted), so the CLI cannot be built';
  const r = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
    },
  );
  return r.status === 0
    ? null
    : `the CLI build (vite build --config vite.cli.config.ts) failed with exit ${r.status}`;
}

// `node scripts/cli-build.mjs [--if-stale] [--optional]`. The `prepare` script (run by `npm ci`) passes
// --optional: an install without devDependencies then succeeds and says the CLI was not built; a build
// that fails still fails the install.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const optional = process.argv.includes('--optional');
  if (optional && viteBin() === null) {
    process.stderr.write(
      'gpu-fleet: Vite is not installed (devDependencies were omitted); the CLI was not built.\n',
    );
  } else if (!process.argv.includes('--if-stale') || cliIsStale()) {
    const problem = buildCli();
    if (problem !== null) {
      process.stderr.write(`gpu-fleet: ${problem}.\n`);
      process.exit(1);
    }
  }
}
