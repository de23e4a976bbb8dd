/**
 * The `gpu-fleet` command runs from the JavaScript that `npm run build:cli` writes to dist/cli/ (the node
 * project's globalSetup builds it when stale): no TypeScript loader among the runtime dependencies, and the
 * bundle imports only Node's built-ins, its own chunks and runtime dependencies, so it also runs after
 * `npm ci --omit=dev`. The simulator's TLS packages load with `gpu-fleet sim` (or a demo it starts) only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closure, SIM_TLS_PACKAGES } from './bundle-closure.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist/cli');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  bin: Record<string, string>;
};

/** The package a bare specifier names: "@scope/name/sub" → "@scope/name", "name/sub" → "name". */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

// Static imports start a line in Vite's output (one line each); dynamic ones can be anywhere.
const staticsOf = (code: string) =>
  [...code.matchAll(/^(?:import|export)\b[^'"\n]*?(["'])([^"'\n]+)\1/gm)].map((m) => m[2] ?? '');
const dynamicsOf = (code: string) =>
  [...code.matchAll(/\bimport\s*\(\s*(["'])([^"'\n]+)\1/g)].map((m) => m[2] ?? '');
const importsOf = (code: string): string[] => [...staticsOf(code), ...dynamicsOf(code)];

const chunk = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
/** The chunks a file loads at once: its static imports of our own chunks, and theirs. */
const loadedWith = (file: string) =>
  closure(file, (f) => staticsOf(chunk(f)).flatMap((s) => (s.startsWith('./') ? [s.slice(2)] : [])));
/** The packages the code of these chunks imports, statically or when it runs (`await import('pkg')`). */
const packagesOf = (files: Iterable<string>) =>
  new Set(
    [...files].flatMap((f) =>
      importsOf(chunk(f))
        .filter((s) => !s.startsWith('./'))
        .map(packageOf),
    ),
  );

describe('the built CLI', () => {
  it('needs no TypeScript loader at run time', () => {
    for (const loader of ['tsx', 'ts-node', 'jiti', '@swc/register', 'esbuild-register'])
      expect(Object.keys(pkg.dependencies)).not.toContain(loader);
    const bin = readFileSync(path.join(ROOT, pkg.bin['gpu-fleet'] ?? ''), 'utf8');
    expect(importsOf(bin)).toEqual(['node:fs', '../scripts/cli-build.mjs']);
    expect(bin).toContain("new URL('../dist/cli/entry.js', import.meta.url)");
  });

  it('imports only built-ins, its own .js chunks and runtime dependencies', () => {
    const files = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    expect(files).toContain('entry.js');
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const runtime = new Set(Object.keys(pkg.dependencies));
    const wrong: string[] = [];
    for (const f of files) {
      for (const spec of importsOf(readFileSync(path.join(DIST, f), 'utf8'))) {
        const ok = spec.startsWith('./')
          ? spec.endsWith('.js') && files.includes(spec.slice(2))
          : builtins.has(spec) || runtime.has(packageOf(spec));
        if (!ok) wrong.push(`${f}: ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("loads the simulator's TLS packages only for `gpu-fleet sim` (serve loads them with its demo, lazily)", () => {
    // Each command is a chunk entry.js imports when that command runs.
    const commands = [
      ...chunk('entry.js').matchAll(
        /registerCommand\("([a-z-]+)", async \(\) => \(await import\("\.\/([^"]+)"\)\)/g,
      ),
    ].map((m) => ({ name: m[1] ?? '', file: m[2] ?? '' }));
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['scan', 'watch', 'serve', 'sim']));
    const atStart = loadedWith('entry.js');
    const withTls = commands
      .filter((c) => {
        const loaded = packagesOf(new Set([...atStart, ...loadedWith(c.file)]));
        return SIM_TLS_PACKAGES.some((p) => loaded.has(p));
      })
      .map((c) => c.name);
    expect(withTls).toEqual(['sim']);
    // And they are there: the simulator's chunk carries them (a renamed package would pass the above).
    const everywhere = packagesOf(readdirSync(DIST).filter((f) => f.endsWith('.js')));
    for (const p of SIM_TLS_PACKAGES) expect(everywhere).toContain(p);
  });

  it('the import scan sees static, dynamic and bare imports, not words in strings', () => {
    expect(
      importsOf(
        `import { a } from './a.js';\nimport 'x';\nconst b = await import("@s/b/c");\nconst t = "from 'uname -r'";`,
      ),
    ).toEqual(['./a.js', 'x', '@s/b/c']);
    expect(packageOf('@s/b/c')).toBe('@s/b');
    expect(packageOf('yaml/util')).toBe('yaml');
  });
});
