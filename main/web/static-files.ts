/**
 * Serves the built renderer folder: no traversal, known content types, index.html for `/`. A path that is
 * not valid percent-encoded UTF-8, or that decodes to a NUL byte, is a 400.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The renderer's CSP, sent as a header by both hosts (the loopback bridge, Electron's app scheme):
 * index.html's <meta> copy has no `frame-ancestors`, which browsers ignore there, with a console error.
 */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES = new Map<string, string>([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.woff2', 'font/woff2'],
]);

export type StaticResult =
  | { status: 200; type: string; body: Buffer }
  | { status: 400 | 404 | 503; body: string };

function decodePath(urlPath: string): string | null {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

export async function readStatic(root: string, urlPath: string): Promise<StaticResult> {
  const decoded = decodePath(urlPath);
  if (decoded === null)
    return { status: 400, body: 'Bad request: the path is not valid percent-encoded UTF-8.' };
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, rel);
  if (file !== root && !file.startsWith(root + path.sep)) return { status: 404, body: 'not found' };
  try {
    return {
      status: 200,
      type: TYPES.get(path.extname(file)) ?? 'application/octet-stream',
      body: await readFile(file),
    };
  } catch {
    if (rel === 'index.html') {
      return { status: 503, body: 'The GPU Fleet window is not built yet: run `npm run build` first.' };
    }
    return { status: 404, body: 'not found' };
  }
}
