// `npm start`: the desktop app when Electron can run here (Node 22+, a display, the Electron binary);
// otherwise one line saying why, then the browser mode of the same app, so the command never just dies.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function electronProblem() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 13))
    return `Electron Forge needs Node.js 22.13 or newer (this is ${process.versions.node})`;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)';
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  if (!existsSync(path.join(electronDir, 'path.txt'))) {
    const fetched = spawnSync('npx', ['install-electron', '--no'], { stdio: 'ignore' });
    if (fetched.status !== 0 || !existsSync(path.join(electronDir, 'path.txt')))
      return 'the Electron binary could not be downloaded';
  }
  return null;
}

const problem = electronProblem();
if (problem === null) {
  const r = spawnSync('npx', ['electron-forge', 'start', ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
console.log(`GPU Fleet: cannot start the desktop app because ${problem}; opening the browser mode instead.`);
if (!existsSync('.vite/renderer/main_window/index.html')) {
  const built = spawnSync(process.execPath, ['scripts/forge-vite-build.mjs', 'renderer'], {
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const r = spawnSync(process.execPath, ['bin/gpu-fleet.mjs', 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
