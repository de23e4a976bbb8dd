/** Serves the built renderer folder: no traversal, known content types, index.html for `/`. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export type StaticResult = { status: 200; type: string; body: Buffer } | { status: 404 | 503; body: string };

export async function readStatic(root: string, urlPath: string): Promise<StaticResult> {
  const rel = urlPath === '/' ? 'index.html' : decodeURIComponent(urlPath).replace(/^\/+/, '');
  const file = path.resolve(root, rel);
  if (file !== root && !file.startsWith(root + path.sep)) return { status: 404, body: 'not found' };
  try {
    return {
      status: 200,
      type: TYPES[path.extname(file)] ?? 'application/octet-stream',
      body: await readFile(file),
    };
  } catch {
    if (rel === 'index.html') {
      return { status: 503, body: 'The GPU Fleet window is not built yet: run `npm run build` first.' };
    }
    return { status: 404, body: 'not found' };
  }
}
