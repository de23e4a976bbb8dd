import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveAppFile } from './app-files.ts';

let root: string;
beforeAll(() => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-app-files-'));
  root = path.join(base, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>GPU Fleet</title>');
  writeFileSync(path.join(root, 'assets', 'app.js'), 'export {}');
  writeFileSync(path.join(base, 'secret.txt'), 'outside the renderer folder');
});

describe('serveAppFile', () => {
  it('serves the renderer folder with content types and no-sniff', async () => {
    const page = await serveAppFile(root, 'gpu-fleet://app/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await serveAppFile(root, 'gpu-fleet://app/assets/app.js?v=1');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export {}');
    expect((await serveAppFile(root, 'gpu-fleet://app/')).status).toBe(200);
  });

  it.each([
    'gpu-fleet://app/../secret.txt',
    'gpu-fleet://app/%2e%2e/secret.txt',
    'gpu-fleet://app/%2e%2e%2fsecret.txt',
    'gpu-fleet://app/assets/..%2f..%2fsecret.txt',
  ])('never answers a file outside the folder: %s', async (url) => {
    const res = await serveAppFile(root, url);
    expect(await res.text()).not.toContain('outside the renderer folder');
    expect(res.status).toBe(404);
  });

  it.each([
    ['another host', 'gpu-fleet://evil/index.html', 404],
    ['another scheme', 'file:///index.html', 404],
    ['a bad encoding', 'gpu-fleet://app/%ff', 400],
    ['a NUL byte', 'gpu-fleet://app/index.html%00', 400],
    ['a missing file', 'gpu-fleet://app/nope.js', 404],
  ])('refuses %s', async (_what, url, status) => {
    expect((await serveAppFile(root, url)).status).toBe(status);
  });
});
