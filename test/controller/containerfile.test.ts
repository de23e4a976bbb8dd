// The Containerfile cannot be built here (no container engine), so its one known trap is checked as
// text: `npm ci` runs the package's `prepare` script (which builds the CLI from main/, common/ and sim/),
// so an `npm ci` that runs before the sources are copied must skip install scripts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const lines = fs.readFileSync(new URL('../../Containerfile', import.meta.url), 'utf8').split('\n');
const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('Containerfile', () => {
  it('runs no install script before the sources are in the build stage', () => {
    expect(pkg.scripts.prepare).toBeDefined();
    const copyAll = lines.findIndex((l) => /^COPY \. \./.test(l));
    expect(copyAll).toBeGreaterThan(0);
    const early = lines.slice(0, copyAll).filter((l) => /^RUN .*npm ci/.test(l));
    expect(early.length).toBeGreaterThan(0);
    for (const l of early) expect(l).toContain('--ignore-scripts');
  });

  it('builds the CLI in the build stage and installs production dependencies only at run time', () => {
    const text = lines.join('\n');
    expect(text).toMatch(/RUN npm run build:cli/);
    expect(text).toMatch(/npm ci --omit=dev --ignore-scripts/);
    expect(text).toMatch(/^USER 1000:1000$/m);
  });
});
