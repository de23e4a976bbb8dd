/**
 * The README's first screen (issue 27): what it is, the two set-up commands, how to point it at your own
 * clusters and where settings and data live, in that order before anything else, in under 15 KB (the
 * rest is in docs/). The folders it names are the ones main/settings/paths.ts computes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../main/settings/paths.ts';

const README = fs.readFileSync(path.join(process.cwd(), 'README.md'), 'utf8');

/** The text of one `## ` section, up to the next. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
  it('is under 15 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThan(15 * 1024);
  });

  it('opens with set-up, your own clusters and where data lives, before any other section', () => {
    const headings = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings.slice(0, 3)).toEqual([
      'Set-up',
      'Point it at your own clusters',
      'Where settings and data live',
    ]);
  });

  it('gives the two set-up commands', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section('Set-up'))?.[1] ?? '';
    expect(
      block
        .trim()
        .split('\n')
        .map((l) => l.split('#')[0]?.trim()),
    ).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  it('points at your own clusters in the window and on the command line', () => {
    const own = section('Point it at your own clusters');
    expect(own).toContain('Settings → Clusters');
    expect(own).toContain('**Monitor**');
    expect(own).toContain('gpu-fleet contexts');
  });

  it('names the folders the code uses', () => {
    const data = section('Where settings and data live');
    const row = (system: string) =>
      new RegExp(`^\\| ${system} +\\| (.+?) +\\|$`, 'm').exec(data)?.[1] ?? `no ${system} row`;
    const linux = defaultConfigDir({ XDG_CONFIG_HOME: '$XDG_CONFIG_HOME' }, 'linux', '~');
    const linuxHome = defaultConfigDir({}, 'linux', '~');
    expect(row('Linux')).toBe(`\`${linux}\` (\`${linuxHome}\`)`);
    expect(row('macOS')).toBe(`\`${defaultConfigDir({}, 'darwin', '~')}\``);
    const windows = defaultConfigDir({ APPDATA: '%APPDATA%' }, 'win32', '~').replaceAll('/', '\\');
    expect(row('Windows')).toBe(`\`${windows}\``);
    expect(data).toContain('settings.json');
    expect(data).toContain('GPU_FLEET_CONFIG_DIR');
  });
});
