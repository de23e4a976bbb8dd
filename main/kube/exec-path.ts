/**
 * Where exec credential plugins live. A tray app started from a desktop session has the login PATH, not
 * the shell's, so gke-gcloud-auth-plugin, aws, kubelogin and friends are often missing from it; we add the
 * usual install places and look the command up ourselves, so a miss can name the command.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function extraPathDirs(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string[] {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local');
    const pf = env.ProgramFiles ?? 'C:\\Program Files';
    const pf86 = env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)';
    return [
      path.join(local, 'Google', 'Cloud SDK', 'google-cloud-sdk', 'bin'),
      path.join(pf86, 'Google', 'Cloud SDK', 'google-cloud-sdk', 'bin'),
      path.join(pf, 'Google', 'Cloud SDK', 'google-cloud-sdk', 'bin'),
      path.join(pf, 'Amazon', 'AWSCLIV2'),
      path.join(home, '.azure-kubelogin'),
      path.join(home, '.krew', 'bin'),
      path.join(home, 'go', 'bin'),
      path.join(home, 'scoop', 'shims'),
      path.join(local, 'Microsoft', 'WinGet', 'Links'),
    ];
  }
  const h = (...p: string[]) => path.join(home, ...p);
  return [
    '/usr/local/bin',
    '/opt/homebrew/bin',
    '/home/linuxbrew/.linuxbrew/bin',
    '/opt/local/bin',
    '/usr/bin',
    '/bin',
    '/snap/bin',
    h('.local', 'bin'),
    h('bin'),
    env.GOPATH ? path.join(env.GOPATH, 'bin') : h('go', 'bin'),
    env.KREW_ROOT ? path.join(env.KREW_ROOT, 'bin') : h('.krew', 'bin'),
    h('google-cloud-sdk', 'bin'),
    '/usr/lib/google-cloud-sdk/bin',
    '/opt/homebrew/share/google-cloud-sdk/bin',
    '/usr/local/share/google-cloud-sdk/bin',
    '/usr/local/Caskroom/google-cloud-sdk/latest/google-cloud-sdk/bin',
    '/usr/local/aws-cli/v2/current/bin',
    h('.azure-kubelogin'),
    h('.rd', 'bin'),
    h('.asdf', 'shims'),
    h('.nix-profile', 'bin'),
    '/nix/var/nix/profiles/default/bin',
  ];
}

/** The process PATH followed by the extra places (no duplicates). */
export function pluginPath(
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
  platform = process.platform,
): string {
  const sep = platform === 'win32' ? ';' : ':';
  const current = (env.PATH ?? env.Path ?? '').split(sep).filter(Boolean);
  return [...new Set([...current, ...extraPathDirs(env, home, platform)])].join(sep);
}

/** The absolute path of `command` on `searchPath`, or null. Absolute commands are checked as they are. */
export function findExecutable(
  command: string,
  searchPath: string,
  platform = process.platform,
): string | null {
  const exts =
    platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  const candidates = path.isAbsolute(command)
    ? exts.map((e) => command + e)
    : searchPath
        .split(platform === 'win32' ? ';' : ':')
        .filter(Boolean)
        .flatMap((dir) => exts.map((e) => path.join(dir, command + e)));
  for (const c of candidates) {
    try {
      const st = fs.statSync(c);
      if (st.isFile() && (platform === 'win32' || (st.mode & 0o111) !== 0)) return c;
    } catch {
      // Not there: try the next place.
    }
  }
  return null;
}
