/** Electron Forge: Vite builds of the three processes, hardened fuses, and installers for every platform. */

import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { MakerDeb } from '@electron-forge/maker-deb';
import { MakerDMG } from '@electron-forge/maker-dmg';
import { MakerRpm } from '@electron-forge/maker-rpm';
import { MakerSquirrel } from '@electron-forge/maker-squirrel';
import { MakerZIP } from '@electron-forge/maker-zip';
import { FusesPlugin } from '@electron-forge/plugin-fuses';
import { VitePlugin } from '@electron-forge/plugin-vite';
import type { ForgeConfig } from '@electron-forge/shared-types';

const config: ForgeConfig = {
  packagerConfig: {
    asar: true,
    // Tray and app icons are read from disk at run time (process.resourcesPath/assets).
    extraResource: ['assets'],
    name: 'GPU Fleet',
    executableName: 'gpu-fleet',
    icon: 'assets/icon',
    appBundleId: 'io.gpufleet.app',
    appCategoryType: 'public.app-category.developer-tools',
  },
  rebuildConfig: {},
  makers: [
    new MakerSquirrel({ name: 'gpu_fleet' }),
    new MakerZIP({}, ['darwin', 'linux']),
    new MakerDeb({ options: { name: 'gpu-fleet', productName: 'GPU Fleet', categories: ['Utility'] } }),
    new MakerRpm({ options: { name: 'gpu-fleet', productName: 'GPU Fleet' } }),
    new MakerDMG({}),
  ],
  plugins: [
    new VitePlugin({
      build: [
        { entry: 'main/index.ts', config: 'vite.main.config.ts', target: 'main' },
        // The engine host, forked by the main process as an Electron utility process (issue 15).
        { entry: 'main/engine-host/entry.ts', config: 'vite.host.config.ts', target: 'main' },
        { entry: 'preload/index.ts', config: 'vite.preload.config.ts', target: 'preload' },
      ],
      renderer: [{ name: 'main_window', config: 'vite.renderer.config.ts' }],
    }),
    new FusesPlugin({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      // The window is served from the app's own scheme (main/electron/app-protocol.ts): file:// needs no extra rights.
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    }),
  ],
};

export default config;
