// `npm test` prints no colour codes: the environment scripts/test-all.mjs gives its steps turns colour
// off for vitest's tinyrainbow, which FORCE_COLOR=0 (the value set before) turned ON.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { plainEnv } from '../../scripts/plain-env.mjs';

const colourOn = (env: NodeJS.ProcessEnv) =>
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import('tinyrainbow').then((m) => process.stdout.write(String(m.isSupported())))",
    ],
    { env, encoding: 'utf8' },
  ).stdout;

describe('plainEnv', () => {
  it('turns colour off where FORCE_COLOR=0 turned it on', () => {
    const base = { PATH: process.env.PATH ?? '' };
    expect(colourOn({ ...base, FORCE_COLOR: '0' })).toBe('true');
    expect(colourOn(plainEnv({ ...base, FORCE_COLOR: '0' }))).toBe('false');
    expect(plainEnv({ FORCE_COLOR: '1', A: 'b' })).toEqual({ A: 'b', NO_COLOR: '1' });
  });
});
