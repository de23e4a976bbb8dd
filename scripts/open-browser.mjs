// Opens a URL in the user's browser for `npm start`, only where someone can see it: a desktop session
// (macOS, Windows, or Linux/BSD with DISPLAY or WAYLAND_DISPLAY) and not CI or a test run. Returns
// null when it launched the opener, else why not (the caller has printed the URL either way).
import { spawn } from 'node:child_process';

/** Decides, from the platform and environment only, which opener to run (pure: tested). */
export function browserOpener(url, platform = process.platform, env = process.env) {
  if (env.CI || env.VITEST || env.GPU_FLEET_NO_OPEN)
    return { skip: 'not opening a browser under CI or tests' };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd.exe built-in; its first quoted argument is the window title, hence the empty "".
  // Passed verbatim (Node would escape the quotes); the URL is ours: 127.0.0.1, a port, a base64url token.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url], verbatim: true };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { skip: 'no desktop session (DISPLAY/WAYLAND_DISPLAY unset)' };
  return { command: 'xdg-open', args: [url] };
}

export function openBrowser(url) {
  const opener = browserOpener(url);
  if ('skip' in opener) return Promise.resolve(opener.skip);
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args, {
      stdio: 'ignore',
      detached: true,
      windowsVerbatimArguments: opener.verbatim === true,
    });
    child.once('error', (e) => resolve(`${opener.command} could not be run (${e.code ?? e.message})`));
    child.once('spawn', () => {
      child.unref();
      resolve(null);
    });
  });
}
