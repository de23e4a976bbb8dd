// `npm start`: the desktop app when Electron can run here (Node 22+, a display, the Electron binary);
// otherwise one line saying why, then the browser mode of the same app, so the command never just dies.
// In browser mode the URL is always printed and, in a desktop session, opened in the user's browser.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { buildCli, cliIsStale } from './cli-build.mjs';
import { openBrowser } from './open-browser.mjs';

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
if (cliIsStale()) {
  const failed = buildCli();
  if (failed !== null) {
    console.error(`GPU Fleet: ${failed}.`);
    process.exit(1);
  }
}

// `serve` prints "GPU Fleet is open at URL"; its output is passed through line by line and the first
// URL is opened. Ctrl-C reaches the child from the terminal (same process group); SIGTERM is passed on.
const child = spawn(process.execPath, ['bin/gpu-fleet.mjs', 'serve', ...process.argv.slice(2)], {
  stdio: ['inherit', 'pipe', 'inherit'],
});
process.on('SIGTERM', () => child.kill('SIGTERM'));
// However this script ends (a closed pipe, a crash), the server it started ends with it.
process.on('exit', () => {
  if (child.exitCode === null) child.kill('SIGTERM');
});
process.stdout.on('error', () => process.exit(1));
process.on('SIGINT', () => undefined);
let opened = false;
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const url = /https?:\/\/127\.0\.0\.1:\d+\/\S*/.exec(line)?.[0];
  if (url && !opened) {
    opened = true;
    openBrowser(url)
      .catch((e) => `the browser could not be opened (${e instanceof Error ? e.message : e})`)
      .then((why) => {
        if (why !== null) console.log(`(${why}; open the address above yourself.)`);
      });
  }
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
