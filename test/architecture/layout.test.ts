/**
 * The README's Layout and docs/architecture.md's import order are the ones the layer ranks generate, and every folder of main/ has a rank and a
 * purpose, so a new room cannot be added without saying where it sits and what it holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PURPOSES, RANKS } from './layers.ts';
import { readLayers, readLayout, renderLayers, renderLayout } from './layout.ts';

const ROOT = process.cwd();

describe('the layout', () => {
  it('gives every folder of main/ a layer and a purpose', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'main'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `main/${d.name}`);
    for (const f of folders) {
      expect(RANKS.has(f), `${f} has a rank in test/architecture/layers.ts`).toBe(true);
      expect(PURPOSES.has(f), `${f} has a purpose in test/architecture/layers.ts`).toBe(true);
    }
    for (const area of RANKS.keys()) expect(PURPOSES.has(area), area).toBe(true);
  });

  it("is the README's Layout block (`npm run layout` regenerates it when a room changes)", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readLayout(readme)).toBe(renderLayout());
  });

  it("is docs/architecture.md's import order (`npm run layout` regenerates it)", () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    expect(readLayers(doc)).toBe(renderLayers());
  });
});
