/**
 * Which Chromium the end-to-end tests, the screenshots and the bench drive, in this order:
 *  1. CHROMIUM_PATH (an error when it names no file: a wrong setting is not silently replaced);
 *  2. a system Chromium or Chrome (fixed paths, then the usual names on PATH);
 *  3. the Chromium shipped inside the `@sparticuz/chromium` devDependency, unpacked once into
 *     node_modules/.cache (so `npm ci && npm test` needs no apt);
 * and one sentence when there is none. GPU_FLEET_SYSTEM_CHROMIUM (a PATH-style list, empty for none)
 * replaces step 2's list, so a test can hide the system browser.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];
const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
export interface FoundChromium {
  path: string;
  source: ChromiumSource;
}

export const NO_CHROMIUM =
  'No Chromium found: set CHROMIUM_PATH, install Chromium or Chrome, or run `npm ci` to get the bundled @sparticuz/chromium.';

/** The system candidates, in order: the override list if set, else the fixed paths and the names on PATH. */
export function systemCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env.GPU_FLEET_SYSTEM_CHROMIUM;
  if (override !== undefined) return override.split(path.delimiter).filter((p) => p !== '');
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
  return [...SYSTEM_PATHS, ...dirs.flatMap((d) => SYSTEM_NAMES.map((n) => path.join(d, n)))];
}

/** Whether p is a file this user may execute (an empty placeholder or a plain file is not a browser). */
export function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Steps 1 and 2 (no unpacking): the configured or system browser, or null. Throws on a bad CHROMIUM_PATH. */
export function configuredOrSystemChromium(
  env: NodeJS.ProcessEnv = process.env,
  exists: (p: string) => boolean = isExecutable,
): FoundChromium | null {
  const configured = env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== '') {
    if (!exists(configured))
      throw new Error(`CHROMIUM_PATH is set to ${configured}, but there is no executable file there.`);
    return { path: configured, source: 'CHROMIUM_PATH' };
  }
  const found = systemCandidates(env).find((p) => exists(p));
  return found ? { path: found, source: 'system' } : null;
}

/** Step 3: unpacks @sparticuz/chromium into node_modules/.cache (once), or null when it is not installed. */
export async function packagedChromium(): Promise<FoundChromium | null> {
  let version: string;
  try {
    // The package exports only its entry (build/index.js); its package.json is one folder up.
    const entry = createRequire(path.join(ROOT, 'package.json')).resolve('@sparticuz/chromium');
    const pkg: unknown = JSON.parse(readFileSync(path.join(path.dirname(entry), '../package.json'), 'utf8'));
    if (!pkg || typeof pkg !== 'object' || !('version' in pkg) || typeof pkg.version !== 'string')
      return null;
    version = pkg.version;
  } catch {
    return null;
  }
  const dir = path.join(ROOT, 'node_modules/.cache/gpu-fleet-chromium', version);
  const binary = path.join(dir, 'chromium');
  const done = path.join(dir, '.complete');
  if (existsSync(done) && existsSync(binary)) return { path: binary, source: '@sparticuz/chromium' };
  // An unpacking that was interrupted leaves files the package would reuse as they are: start over.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { default: Chromium } = await import('@sparticuz/chromium');
  // The package unpacks into os.tmpdir(); point that at the cache for the length of the call.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const unpacked = await Chromium.executablePath();
    if (unpacked !== binary) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not ${binary}.`);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  writeFileSync(done, `${version}\n`);
  return { path: binary, source: '@sparticuz/chromium' };
}

/** The Chromium to drive, or an Error carrying NO_CHROMIUM. */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<FoundChromium> {
  const found = configuredOrSystemChromium(env) ?? (await packagedChromium());
  if (found === null) throw new Error(NO_CHROMIUM);
  return found;
}
