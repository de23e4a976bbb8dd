/**
 * The Chromium resolution order (CHROMIUM_PATH, then a system browser, then @sparticuz/chromium, else one
 * sentence), and the packaged Chromium really driving a page when no system browser is visible.
 */

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configuredOrSystemChromium,
  isExecutable,
  packagedChromium,
  systemCandidates,
} from './chromium-path.ts';

const has =
  (...present: string[]) =>
  (p: string) =>
    present.includes(p);

describe('which Chromium', () => {
  it('CHROMIUM_PATH comes first, even when a system browser exists', () => {
    const env = { CHROMIUM_PATH: '/opt/my/chrome', PATH: '/usr/bin' };
    expect(configuredOrSystemChromium(env, has('/opt/my/chrome', '/usr/bin/chromium'))).toEqual({
      path: '/opt/my/chrome',
      source: 'CHROMIUM_PATH',
    });
  });

  it('a CHROMIUM_PATH that names no file is an error in one sentence, not a silent fallback', () => {
    expect(() =>
      configuredOrSystemChromium({ CHROMIUM_PATH: '/nope/chrome' }, has('/usr/bin/chromium')),
    ).toThrow('CHROMIUM_PATH is set to /nope/chrome, but there is no executable file there.');
  });

  it('then the first system browser: fixed paths before names on PATH', () => {
    const env = { PATH: '/home/u/bin:/usr/local/bin' };
    expect(configuredOrSystemChromium(env, has('/home/u/bin/chromium', '/usr/bin/google-chrome'))).toEqual({
      path: '/usr/bin/google-chrome',
      source: 'system',
    });
    expect(configuredOrSystemChromium(env, has('/usr/local/bin/google-chrome-stable'))?.path).toBe(
      '/usr/local/bin/google-chrome-stable',
    );
  });

  it('GPU_FLEET_SYSTEM_CHROMIUM replaces the system list (empty: none), so tests can hide /usr/bin/chromium', () => {
    expect(systemCandidates({ GPU_FLEET_SYSTEM_CHROMIUM: '', PATH: '/usr/bin' })).toEqual([]);
    expect(systemCandidates({ GPU_FLEET_SYSTEM_CHROMIUM: '/a/chrome:/b/chrome' })).toEqual([
      '/a/chrome',
      '/b/chrome',
    ]);
    expect(
      configuredOrSystemChromium({ GPU_FLEET_SYSTEM_CHROMIUM: '' }, has('/usr/bin/chromium')),
    ).toBeNull();
  });
});

describe('a candidate counts only when it is executable', () => {
  it('a plain file (say, an empty file mounted over /usr/bin/chromium) is not a browser', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-fleet-chromium-'));
    const plain = path.join(dir, 'chromium');
    writeFileSync(plain, '');
    expect(isExecutable(plain)).toBe(false);
    chmodSync(plain, 0o755);
    expect(isExecutable(plain)).toBe(true);
    expect(isExecutable(path.join(dir, 'missing'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the Chromium shipped in @sparticuz/chromium', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('unpacks into node_modules/.cache and renders a page headless', async () => {
    const found = await packagedChromium();
    expect(found?.source).toBe('@sparticuz/chromium');
    expect(found?.path).toMatch(/node_modules\/\.cache\/gpu-fleet-chromium\/[\d.]+\/chromium$/);
    // A second call reuses the unpacked copy.
    expect(await packagedChromium()).toEqual(found);
    browser = await chromium.launch({
      executablePath: found?.path ?? '',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
    const page = await browser.newPage();
    await page.setContent('<p id="x">rendered</p><script>document.title = String(1 + 1)</script>');
    expect(await page.textContent('#x')).toBe('rendered');
    expect(await page.title()).toBe('2');
  });
});
