// Draws the tray and app icons into assets/ with nothing but Node builtins, so anyone can regenerate them
// (`node scripts/make-icons.mjs [outDir]`) and get byte-identical PNGs: shapes are pure functions sampled on a fixed
// supersampling grid, and the PNG encoder uses fixed deflate settings.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

// ── PNG encoding ────────────────────────────────────────────────────────────────────────────────────
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** 8-bit RGBA, non-interlaced; every row uses filter 0 (none), which keeps the encoder trivial. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++)
    raw.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = deflateSync(raw, { level: 9, memLevel: 9, strategy: 0 });
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

// ── Shapes: inside-tests in design units, with a bounding box so painting only visits what it must ─────
const shape = (bbox, inside) => ({ bbox, inside });
const rrect = (x0, y0, x1, y1, r) =>
  shape([x0, y0, x1, y1], (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const dx = Math.max(x0 + r - x, 0, x - x1 + r);
    const dy = Math.max(y0 + r - y, 0, y - y1 + r);
    return dx * dx + dy * dy <= r * r;
  });
const circle = (cx, cy, r) =>
  shape([cx - r, cy - r, cx + r, cy + r], (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r);
const ring = (cx, cy, r0, r1) =>
  shape([cx - r1, cy - r1, cx + r1, cy + r1], (x, y) => {
    const d = (x - cx) ** 2 + (y - cy) ** 2;
    return d <= r1 * r1 && d >= r0 * r0;
  });
function segDist2(x, y, ax, ay, bx, by) {
  const vx = bx - ax;
  const vy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy || 1)));
  return (x - ax - t * vx) ** 2 + (y - ay - t * vy) ** 2;
}
/** A round-capped stroke through the points. */
function stroke(points, r) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const bbox = [Math.min(...xs) - r, Math.min(...ys) - r, Math.max(...xs) + r, Math.max(...ys) + r];
  return shape(bbox, (x, y) =>
    points.slice(1).some((b, i) => segDist2(x, y, points[i][0], points[i][1], b[0], b[1]) <= r * r),
  );
}
/** A triangle with corners rounded by r: the inset triangle grown by r. */
function roundTriangle(pts, r) {
  const edges = stroke([...pts, pts[0]], r);
  const inTri = (x, y) =>
    pts.every((a, i) => {
      const b = pts[(i + 1) % 3];
      return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) >= 0;
    });
  return shape(edges.bbox, (x, y) => inTri(x, y) || edges.inside(x, y));
}
const union = (...ss) =>
  shape(
    [
      Math.min(...ss.map((s) => s.bbox[0])),
      Math.min(...ss.map((s) => s.bbox[1])),
      Math.max(...ss.map((s) => s.bbox[2])),
      Math.max(...ss.map((s) => s.bbox[3])),
    ],
    (x, y) => ss.some((s) => s.inside(x, y)),
  );
const minus = (a, b) => shape(a.bbox, (x, y) => a.inside(x, y) && !b.inside(x, y));

// ── Painting: premultiplied float RGBA, coverage from an ss×ss grid of samples per pixel ──────────────
function makeCanvas(size, units) {
  return { size, scale: size / units, ss: size <= 64 ? 8 : 4, px: new Float64Array(size * size * 4) };
}

/** colour is [r, g, b, alpha0to1], a function (x, y) → that, or 'erase' (destination-out). */
function paint(cv, s, colour) {
  const { size, scale, ss, px } = cv;
  const clampPx = (v) => Math.max(0, Math.min(size, v));
  const [x0, y0] = [clampPx(Math.floor(s.bbox[0] * scale)), clampPx(Math.floor(s.bbox[1] * scale))];
  const [x1, y1] = [clampPx(Math.ceil(s.bbox[2] * scale)), clampPx(Math.ceil(s.bbox[3] * scale))];
  for (let py = y0; py < y1; py++) {
    for (let qx = x0; qx < x1; qx++) {
      let hits = 0;
      for (let j = 0; j < ss; j++)
        for (let i = 0; i < ss; i++)
          if (s.inside((qx + (i + 0.5) / ss) / scale, (py + (j + 0.5) / ss) / scale)) hits++;
      if (hits === 0) continue;
      const cov = hits / (ss * ss);
      const k = (py * size + qx) * 4;
      if (colour === 'erase') {
        for (let c = 0; c < 4; c++) px[k + c] *= 1 - cov;
        continue;
      }
      const [r, g, b, a0] =
        typeof colour === 'function' ? colour((qx + 0.5) / scale, (py + 0.5) / scale) : colour;
      const a = a0 * cov;
      px[k] = (r / 255) * a + px[k] * (1 - a);
      px[k + 1] = (g / 255) * a + px[k + 1] * (1 - a);
      px[k + 2] = (b / 255) * a + px[k + 2] * (1 - a);
      px[k + 3] = a + px[k + 3] * (1 - a);
    }
  }
}

function toRgba(cv) {
  const out = new Uint8Array(cv.px.length);
  for (let k = 0; k < cv.px.length; k += 4) {
    const a = cv.px[k + 3];
    if (a <= 0) continue;
    for (let c = 0; c < 3; c++) out[k + c] = Math.round(Math.min(1, cv.px[k + c] / a) * 255);
    out[k + 3] = Math.round(Math.min(1, a) * 255);
  }
  return out;
}

function render(size, units, ops) {
  const cv = makeCanvas(size, units);
  for (const [s, colour] of ops) paint(cv, s, colour);
  return encodePng(size, toRgba(cv));
}

// ── Tray glyph: a graphics card (board, fan, edge connector) on a 16-unit grid, edges on whole pixels ──
const INK = [30, 41, 59, 1];
const BOARD = [226, 232, 240, 1];
const WHITE = [255, 255, 255, 1];
const BLACK = [0, 0, 0, 1];
const BADGE = {
  'all-ready': [22, 163, 74, 1],
  degraded: [238, 148, 6, 1],
  down: [220, 38, 38, 1],
  unreachable: [112, 122, 138, 1],
  paused: [112, 122, 138, 1],
};

/** The card; `fine` (the -32 sizes) uses half-unit strokes and adds fan blades and connector teeth. */
function card(fine) {
  const w = fine ? 0.5 : 1;
  const outline = rrect(1, 3, 15, 14, 2);
  const fill = rrect(1 + w, 3 + w, 15 - w, 14 - w, 2 - w);
  const fan = [ring(6.5, 8.5, 3.5 - w, 3.5), fine ? circle(6.5, 8.5, 0.9) : rrect(6, 8, 7, 9, 0)];
  const fingers = fine ? [3, 4, 5, 6, 7].map((x) => rrect(x, 14, x + 0.5, 16, 0)) : [rrect(3, 14, 8, 16, 0)];
  const vents = fine
    ? [10, 11.5, 13].map((x) => rrect(x, 5, x + 0.5, 8, 0.25))
    : [rrect(10, 5, 11, 7, 0), rrect(12, 5, 13, 7, 0)];
  const blades = fine
    ? [0, 1, 2, 3, 4].map((i) => {
        const t = (i * 2 * Math.PI) / 5;
        const at = (a, r) => [6.5 + Math.cos(a) * r, 8.5 + Math.sin(a) * r];
        return stroke([at(t, 1.3), at(t + 0.9, 2.5)], 0.3);
      })
    : [];
  return { outline, fill, details: [...fan, ...fingers, ...vents, ...blades] };
}

/** Badge silhouette, the gap cut around it, and its mark (a check, bar, exclamation, slash or nothing). */
function badge(state, fine) {
  const m = fine ? 0.55 : 0.72;
  switch (state) {
    case 'all-ready':
      return {
        body: circle(12, 12, 4),
        gap: circle(12, 12, 5),
        mark: stroke(
          [
            [9.9, 12.1],
            [11.3, 13.5],
            [14.2, 10.6],
          ],
          m,
        ),
      };
    case 'down':
      return { body: circle(12, 12, 4), gap: circle(12, 12, 5), mark: rrect(10, 11, 14, 13, 0.4) };
    case 'degraded': {
      const tri = [
        [12.5, 9.3],
        [15.2, 14.9],
        [9.8, 14.9],
      ];
      const mark = fine
        ? union(
            stroke(
              [
                [12.5, 11.3],
                [12.5, 12.8],
              ],
              0.5,
            ),
            circle(12.5, 14.2, 0.5),
          )
        : union(rrect(12, 10.5, 13, 13, 0), rrect(12, 14, 13, 15, 0));
      return { body: roundTriangle(tri, 1), gap: roundTriangle(tri, 2), mark, markColour: INK };
    }
    case 'unreachable':
      return {
        body: circle(12, 12, 4),
        gap: circle(12, 12, 5),
        mark: stroke(
          [
            [10.2, 13.8],
            [13.8, 10.2],
          ],
          m,
        ),
      };
    case 'paused': {
      const bars = (g) =>
        union(rrect(9 - g, 9 - g, 11 + g, 16 + g, 0.5 + g), rrect(13 - g, 9 - g, 15 + g, 16 + g, 0.5 + g));
      return { body: bars(0), gap: bars(1) };
    }
    default:
      return null;
  }
}

function trayOps(state, fine, template) {
  const { outline, fill, details } = card(fine);
  const b = badge(state, fine);
  const ops = [
    [outline, template ? BLACK : INK],
    [fill, template ? 'erase' : BOARD],
    ...details.map((s) => [s, template ? BLACK : INK]),
  ];
  if (!b) return ops;
  ops.push([b.gap, 'erase'], [b.body, template ? BLACK : BADGE[state]]);
  if (b.mark) ops.push([b.mark, template ? 'erase' : (b.markColour ?? WHITE)]);
  return ops;
}

// ── App icon: the same card, richer, on a rounded-square tile (64-unit grid, macOS-style margins) ──────
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * Math.max(0, Math.min(1, t)));
const vertical = (top, bottom, y0, y1) => (_x, y) => mix(top, bottom, (y - y0) / (y1 - y0));
const TILE = vertical([40, 62, 96, 1], [12, 20, 38, 1], 6, 58);

function fanOps(cx, cy) {
  const blades = shape([cx - 6.6, cy - 6.6, cx + 6.6, cy + 6.6], (x, y) => {
    const r = Math.hypot(x - cx, y - cy);
    if (r < 2.4 || r > 6.6) return false;
    const turn = (Math.atan2(y - cy, x - cx) / (2 * Math.PI)) * 7 + r * 0.09;
    return turn - Math.floor(turn) < 0.58;
  });
  return [
    [circle(cx, cy, 7.6), [15, 23, 42, 1]],
    [ring(cx, cy, 6.9, 7.6), [71, 85, 105, 1]],
    [blades, vertical([100, 116, 139, 1], [51, 65, 85, 1], cy - 7, cy + 7)],
    [circle(cx, cy, 2.6), [203, 213, 225, 1]],
    [circle(cx, cy, 1), [100, 116, 139, 1]],
  ];
}

function appOps() {
  const ops = [];
  // A soft drop shadow from stacked faint tiles, then the tile and a faint top highlight.
  for (let i = 8; i > 0; i--)
    ops.push([
      rrect(6 - i * 0.2, 6.8 - i * 0.1, 58 + i * 0.2, 58.8 + i * 0.25, 12 + i * 0.2),
      [0, 0, 0, 0.035],
    ]);
  ops.push([rrect(6, 6, 58, 58, 12), TILE]);
  ops.push([minus(rrect(6, 6, 58, 58, 12), rrect(6, 6.4, 58, 58, 12)), [255, 255, 255, 0.12]]);
  // Bracket, board, LED strip, fans, gold edge connector.
  ops.push([
    union(rrect(8.5, 18, 11.5, 46, 0.8), rrect(8.5, 18, 14, 20, 0.8)),
    vertical([226, 232, 240, 1], [148, 163, 184, 1], 18, 46),
  ]);
  ops.push([rrect(11, 20, 54, 42, 3.2), [15, 23, 42, 1]]);
  ops.push([rrect(11.8, 20.8, 53.2, 41.2, 2.6), vertical([241, 245, 249, 1], [176, 189, 206, 1], 20, 42)]);
  ops.push([rrect(15, 23, 50, 24, 0.5), [34, 197, 94, 1]]);
  ops.push(...fanOps(23, 32), ...fanOps(42, 32));
  for (let x = 17; x < 36; x += 2)
    ops.push([rrect(x, 42, x + 1.3, 46, 0.3), vertical([250, 204, 21, 1], [202, 138, 4, 1], 42, 46)]);
  // Status badge with a tile-coloured gap so it reads as sitting on top.
  ops.push(
    [circle(47, 45, 10), TILE],
    [circle(47, 45, 8), vertical([74, 222, 128, 1], [22, 163, 74, 1], 37, 53)],
  );
  ops.push([
    stroke(
      [
        [43.1, 45.3],
        [46, 48.2],
        [51.1, 42.3],
      ],
      1.35,
    ),
    WHITE,
  ]);
  return ops;
}

// ── Output ───────────────────────────────────────────────────────────────────────────────────────────
/** Writes into assets/ at the repository root, or into the folder given as the first argument. */
const OUT = process.argv[2]
  ? path.resolve(process.argv[2])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../assets');
const STATES = ['all-ready', 'degraded', 'down', 'unreachable', 'paused', 'idle'];
/** [file suffix, pixel size, fine detail, macOS template] */
const TRAY_VARIANTS = [
  ['', 16, false, false],
  ['@2x', 32, false, false],
  ['-32', 32, true, false],
  ['-32@2x', 64, true, false],
  ['Template', 16, false, true],
  ['Template@2x', 32, false, true],
];

mkdirSync(path.join(OUT, 'tray'), { recursive: true });
for (const state of STATES)
  for (const [suffix, size, fine, template] of TRAY_VARIANTS)
    writeFileSync(
      path.join(OUT, `tray/${state}${suffix}.png`),
      render(size, 16, trayOps(state, fine, template)),
    );
writeFileSync(path.join(OUT, 'icon.png'), render(512, 64, appOps()));
writeFileSync(path.join(OUT, 'icon-256.png'), render(256, 64, appOps()));
