/** Only main/electron/ and main/index.ts may import 'electron': the engine must run without it. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOTS = ['main', 'common', 'renderer', 'sim', 'bench'];
const ALLOWED = [/^main\/electron\//, /^main\/index\.ts$/, /^preload\//];
const IMPORTS_ELECTRON =
  /(from\s+['"]electron(\/\w+)?['"]|require\(\s*['"]electron(\/\w+)?['"]\s*\)|import\(\s*['"]electron['"]\s*\))/;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|svelte|mjs|cjs|js)$/.test(name)) yield full.split(path.sep).join('/');
  }
}

it('keeps electron imports inside main/electron/ and main/index.ts', () => {
  const offenders = ROOTS.flatMap((root) => [...sourceFiles(root)])
    .filter((file) => !ALLOWED.some((re) => re.test(file)))
    .filter((file) => IMPORTS_ELECTRON.test(readFileSync(file, 'utf8')));
  expect(offenders).toEqual([]);
});

it('detects an electron import when one is there (the check can fail)', () => {
  expect(IMPORTS_ELECTRON.test("import { app } from 'electron';")).toBe(true);
  expect(IMPORTS_ELECTRON.test("const { app } = require('electron')")).toBe(true);
  expect(IMPORTS_ELECTRON.test("import x from 'electron-store';")).toBe(false);
});
