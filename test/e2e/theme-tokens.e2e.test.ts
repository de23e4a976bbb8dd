/**
 * The window's theme tokens (renderer/styles/global.css) are written once and reach the page by two
 * paths: the system's colour scheme (no `data-theme`) and the settings' override (`data-theme` on the
 * root, whatever the system says). In Chromium, every token resolves to the same value by either path,
 * and each one the theme changes does differ between light and dark: for the stylesheet as written
 * (light-dark()) and as built (the build lowers light-dark() to custom-property toggles).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';

const SOURCE = readFileSync('renderer/styles/global.css', 'utf8');
/** The custom properties the root declares (the tokens the components use). */
const TOKENS = [...new Set([...SOURCE.matchAll(/^\s*(--[a-z-]+):/gm)].map((m) => m[1] as string))];
const ASSETS = '.vite/renderer/main_window/assets';
/** The renderer's built stylesheet (`npm run build` makes it, as for every suite here). */
function builtCss(): string {
  const files = readdirSync(ASSETS).filter((f) => f.endsWith('.css'));
  if (files.length !== 1)
    throw new Error(`${ASSETS} holds ${files.length} stylesheets, not one: run npm run build`);
  return readFileSync(path.join(ASSETS, files[0] as string), 'utf8');
}
/** The tokens that are the same in both themes. */
const THEMELESS = new Set(['--radius', '--mono']);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

type Scheme = 'light' | 'dark';

/**
 * The page script (text: this file is type-checked without the DOM's types) that sets the override, then
 * reads the used scheme and every token as Chromium resolves it on a probe: as a colour, a shadow, a font
 * and a radius (a token that is none of these resolves to the property's initial value, alike both ways).
 */
function probeScript(theme: Scheme | null): string {
  return `(() => {
    const theme = ${JSON.stringify(theme)};
    if (theme) document.documentElement.dataset.theme = theme;
    const used = document.createElement('div');
    used.style.setProperty('color', 'light-dark(rgb(1, 1, 1), rgb(2, 2, 2))');
    document.body.append(used);
    const out = { scheme: getComputedStyle(used).color === 'rgb(2, 2, 2)' ? 'dark' : 'light' };
    for (const t of ${JSON.stringify(TOKENS)}) {
      const probe = document.createElement('div');
      for (const p of ['color', 'box-shadow', 'font-family', 'border-radius']) probe.style.setProperty(p, 'var(' + t + ')');
      document.body.append(probe);
      const s = getComputedStyle(probe);
      out[t] = [s.color, s.boxShadow, s.fontFamily, s.borderTopLeftRadius].join(' | ');
    }
    return out;
  })()`;
}

/** The tokens and the used scheme of a page with this stylesheet, the system's scheme and the override. */
async function resolved(css: string, system: Scheme, theme: Scheme | null): Promise<Record<string, string>> {
  const context = await browser.newContext({ colorScheme: system });
  try {
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body></body></html>`);
    return await page.evaluate<Record<string, string>>(probeScript(theme));
  } finally {
    await context.close();
  }
}

describe('the theme tokens', () => {
  it('are read from the stylesheet (the probe sees them)', () => {
    expect(TOKENS).toEqual(expect.arrayContaining(['--bg', '--fg', '--card', '--bad', '--shadow']));
  });

  it.each([
    ['as written', () => SOURCE],
    ['as built', builtCss],
  ])(
    'resolve the same by the system scheme and by the settings override, %s; light differs from dark',
    async (_, css) => {
      const sheet = css();
      const systemDark = await resolved(sheet, 'dark', null);
      const systemLight = await resolved(sheet, 'light', null);
      expect(await resolved(sheet, 'light', 'dark')).toEqual(systemDark);
      expect(await resolved(sheet, 'dark', 'dark')).toEqual(systemDark);
      expect(await resolved(sheet, 'dark', 'light')).toEqual(systemLight);
      expect(await resolved(sheet, 'light', 'light')).toEqual(systemLight);
      expect([systemDark.scheme, systemLight.scheme]).toEqual(['dark', 'light']);
      for (const t of TOKENS.filter((t) => !THEMELESS.has(t)))
        expect(systemDark[t], `${t} has a dark value of its own`).not.toBe(systemLight[t]);
    },
  );
});
