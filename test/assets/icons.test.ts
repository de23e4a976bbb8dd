/**
 * The committed icons: every file the tray and packager load exists, is a well-formed RGBA PNG of the size
 * its name promises, macOS template images carry only alpha, the tray states can be told apart, and
 * scripts/make-icons.mjs regenerates exactly the committed bytes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ASSETS = path.join(ROOT, 'assets');
const STATES = ['all-ready', 'degraded', 'down', 'unreachable', 'paused', 'idle'] as const;
const VARIANTS = [
  { suffix: '', size: 16, template: false },
  { suffix: '@2x', size: 32, template: false },
  { suffix: '-32', size: 32, template: false },
  { suffix: '-32@2x', size: 64, template: false },
  { suffix: 'Template', size: 16, template: true },
  { suffix: 'Template@2x', size: 32, template: true },
] as const;
const EXPECTED = [
  ...STATES.flatMap((state) =>
    VARIANTS.map((v) => ({ file: `tray/${state}${v.suffix}.png`, size: v.size, template: v.template })),
  ),
  { file: 'icon.png', size: 512, template: false },
  { file: 'icon-256.png', size: 256, template: false },
];
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Png {
  width: number;
  height: number;
  /** Unfiltered 8-bit RGBA, row after row. */
  rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes the only form the icons use (8-bit RGBA, no interlace), undoing all five row filters. */
function decodePng(bytes: Buffer): Png {
  expect(bytes.subarray(0, 8).equals(SIGNATURE)).toBe(true);
  let offset = 8;
  let header: Buffer | undefined;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  expect(offset).toBe(bytes.length);
  if (!header) throw new Error('no IHDR chunk');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8, 13)]).toEqual([8, 6, 0, 0, 0]);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  expect(raw.length).toBe(height * (stride + 1));
  const rgba = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] ?? 0;
      const a = x >= 4 ? (rgba[y * stride + x - 4] ?? 0) : 0;
      const b = y > 0 ? (rgba[(y - 1) * stride + x] ?? 0) : 0;
      const c = x >= 4 && y > 0 ? (rgba[(y - 1) * stride + x - 4] ?? 0) : 0;
      const predict = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter ?? -1];
      if (predict === undefined) throw new Error(`bad filter ${filter}`);
      rgba[y * stride + x] = (v + predict) & 0xff;
    }
  }
  return { width, height, rgba };
}

const load = (file: string): Png => decodePng(readFileSync(path.join(ASSETS, file)));

describe('icon files', () => {
  it.each(EXPECTED)('$file is a $size×$size RGBA PNG', ({ file, size }) => {
    expect(existsSync(path.join(ASSETS, file))).toBe(true);
    const png = load(file);
    expect([png.width, png.height]).toEqual([size, size]);
    const alphas = new Set(png.rgba.filter((_, i) => i % 4 === 3));
    expect(alphas.has(0)).toBe(true);
    expect(alphas.has(255)).toBe(true);
  });

  it.each(EXPECTED.filter((e) => e.template))('$file is black with only alpha varying', ({ file }) => {
    const { rgba } = load(file);
    const alphas = new Set<number>();
    for (let i = 0; i < rgba.length; i += 4) {
      expect([rgba[i], rgba[i + 1], rgba[i + 2]]).toEqual([0, 0, 0]);
      alphas.add(rgba[i + 3] ?? 0);
    }
    expect(alphas.size).toBeGreaterThan(2);
  });

  it.each(EXPECTED.filter((e) => !e.template))('$file has colour, not just black', ({ file }) => {
    const { rgba } = load(file);
    expect(rgba.some((v, i) => i % 4 !== 3 && v > 128)).toBe(true);
  });

  it.each(VARIANTS)('the six "$suffix" tray states all differ', ({ suffix }) => {
    const pixels = STATES.map((state) => Buffer.from(load(`tray/${state}${suffix}.png`).rgba));
    for (let i = 0; i < pixels.length; i++)
      for (let j = i + 1; j < pixels.length; j++) expect(pixels[i]?.equals(pixels[j] as Buffer)).toBe(false);
  });
});

describe('scripts/make-icons.mjs', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-icons-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('regenerates byte-identical copies of the committed icons', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/make-icons.mjs'), out], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const { file } of EXPECTED)
      expect(readFileSync(path.join(out, file)).equals(readFileSync(path.join(ASSETS, file)))).toBe(true);
  });
});
