/** Launches Chromium (found by chromium-path.ts) through playwright-core with the flags that work in CI's sandbox. */
import { type Browser, chromium } from 'playwright-core';
import { findChromium } from './chromium-path.ts';

export async function launchChromium(): Promise<Browser> {
  const found = await findChromium();
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
