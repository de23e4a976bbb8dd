/**
 * Where settings and logs live: the same folder Electron uses as `userData` for "GPU Fleet", so the
 * CLI and browser mode see the desktop app's settings. `GPU_FLEET_CONFIG_DIR` overrides it.
 */
import os from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'GPU Fleet';

export function defaultConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.GPU_FLEET_CONFIG_DIR) return path.resolve(env.GPU_FLEET_CONFIG_DIR);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', PRODUCT_NAME);
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), PRODUCT_NAME);
}
