/**
 * The packaged app's fuses (forge.config.ts): read from the Forge config the packager uses, so a fuse
 * switched back on fails here, not only in a shipped build.
 */
import { FuseV1Options } from '@electron/fuses';
import { expect, it } from 'vitest';
import config from '../../forge.config.ts';

const fuses = (): Record<number, unknown> => {
  const plugin = config.plugins?.find((p) => typeof p === 'object' && 'name' in p && p.name === 'fuses');
  const found: unknown = plugin && Reflect.get(plugin, 'fusesConfig');
  if (typeof found !== 'object' || found === null) throw new Error('no fuses plugin in forge.config.ts');
  return found as Record<number, unknown>;
};

it.each([
  ['GrantFileProtocolExtraPrivileges', FuseV1Options.GrantFileProtocolExtraPrivileges],
  ['RunAsNode', FuseV1Options.RunAsNode],
  ['EnableNodeOptionsEnvironmentVariable', FuseV1Options.EnableNodeOptionsEnvironmentVariable],
  ['EnableNodeCliInspectArguments', FuseV1Options.EnableNodeCliInspectArguments],
])('switches the %s fuse off', (_name, fuse) => {
  expect(fuses()[fuse]).toBe(false);
});

it.each([
  ['EnableEmbeddedAsarIntegrityValidation', FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
  ['OnlyLoadAppFromAsar', FuseV1Options.OnlyLoadAppFromAsar],
])('switches the %s fuse on', (_name, fuse) => {
  expect(fuses()[fuse]).toBe(true);
});
