/**
 * The `gpu-fleet` command runs from the JavaScript that `npm run build:cli` writes to dist/cli/ (the node
 * project's globalSetup builds it when stale): no TypeScript loader among the runtime dependencies, and the
 * bundle imports only Node's built-ins, its own chunks and runtime dependencies, so it also runs after
 * `npm ci --omit=dev`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

function importsOf(code: string): string[] {
  // Static imports start a line in Vite's output (one line each); dynamic ones can be anywhere.
  const statics = code.matchAll(/^(?:import|export)\b[^'"\n]*?(["'])([^"'\n]+)\1/gm);
  const dynamics = code.matchAll(/\bimport\s*\(\s*(["'])([^"'\n]+)\1/g);
  return [...statics, ...dynamics].map((m) => m[2] ?? '');
}

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
