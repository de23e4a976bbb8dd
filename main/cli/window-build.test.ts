/**
 * serve never prints an address that answers "not built": a missing window is built first (said on
 * stderr), and where it cannot be built the command refuses in one sentence.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureWindowBuilt } from './window-build.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function packageFolder(withVite: boolean): { root: string; dir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-window-build-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.writeFileSync(path.join(root, 'scripts/forge-vite-build.mjs'), '');
  if (withVite) {
    fs.mkdirSync(path.join(root, 'node_modules/vite'), { recursive: true });
    fs.writeFileSync(path.join(root, 'node_modules/vite/package.json'), '{}');
  }
  return { root, dir: path.join(root, '.vite/renderer/main_window') };
}

describe('ensureWindowBuilt', () => {
  it('does nothing when the window is built', () => {
    const p = packageFolder(true);
    fs.mkdirSync(p.dir, { recursive: true });
    fs.writeFileSync(path.join(p.dir, 'index.html'), '<!doctype html>');
    const said: string[] = [];
    ensureWindowBuilt({ ...p, run: () => 1 }, (l) => said.push(l));
    expect(said).toEqual([]);
  });

  it('builds a missing window first and says so', () => {
    const p = packageFolder(true);
    const said: string[] = [];
    let builds = 0;
    ensureWindowBuilt(
      {
        ...p,
        run: (root) => {
          builds++;
          expect(root).toBe(p.root);
          fs.mkdirSync(p.dir, { recursive: true });
          fs.writeFileSync(path.join(p.dir, 'index.html'), '<!doctype html>');
          return 0;
        },
      },
      (l) => said.push(l),
    );
    expect(builds).toBe(1);
    expect(said).toEqual(['Building the GPU Fleet window (first run, a few seconds)…']);
  });

  it('refuses in one sentence when the build fails or leaves no window', () => {
    const p = packageFolder(true);
    expect(() => ensureWindowBuilt({ ...p, run: () => 1 }, () => undefined)).toThrow(
      'the GPU Fleet window could not be built (the renderer build exited 1); run `npm run build:renderer` to see why',
    );
    expect(() => ensureWindowBuilt({ ...p, run: () => 0 }, () => undefined)).toThrow('could not be built');
  });

  it('refuses without Vite (devDependencies omitted) and does not try', () => {
    const p = packageFolder(false);
    let tried = false;
    expect(() =>
      ensureWindowBuilt(
        {
          ...p,
          run: () => {
            tried = true;
            return 0;
          },
        },
        () => undefined,
      ),
    ).toThrow('cannot be built here (no Vite');
    expect(tried).toBe(false);
  });
});
