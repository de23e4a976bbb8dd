import { expect, it } from 'vitest';
import { defaultConfigDir } from './paths.ts';

it.each([
  ['linux', {}, '/home/u/.config/GPU Fleet'],
  ['linux', { XDG_CONFIG_HOME: '/xdg' }, '/xdg/GPU Fleet'],
  ['darwin', {}, '/home/u/Library/Application Support/GPU Fleet'],
  ['linux', { GPU_FLEET_CONFIG_DIR: '/tmp/gf' }, '/tmp/gf'],
] as const)('on %s with %o uses %s (like Electron userData)', (platform, env, expected) => {
  expect(defaultConfigDir(env, platform, '/home/u')).toBe(expected);
});
