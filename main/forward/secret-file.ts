/**
 * A secret read from a file named on the command line (`--forward-token-file F`): only a regular file
 * that only its owner may read (mode 0600 or 0400; not a symlink, FIFO or device), at most 4 KiB, its
 * trailing newline dropped. Every refusal is one sentence naming the flag and the file, never a byte
 * of what is in it. (Windows has no such mode bits; there only the kind of file and its size count.)
 */
import fs from 'node:fs';

export const SECRET_FILE_MAX = 4096;

export type SecretRead = { ok: true; value: string } | { ok: false; error: string };

export function readSecretFile(
  file: string,
  flag: string,
  platform: NodeJS.Platform = process.platform,
): SecretRead {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    return { ok: false, error: `${flag} ${file} cannot be read (${code})` };
  }
  if (!stat.isFile())
    return {
      ok: false,
      error: `${flag} ${file} is not a regular file (a symlink, FIFO or device is refused)`,
    };
  if (platform !== 'win32' && (stat.mode & 0o077) !== 0)
    return {
      ok: false,
      error: `${flag} ${file} may be read by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); run: chmod 600 ${file}`,
    };
  if (stat.size > SECRET_FILE_MAX)
    return { ok: false, error: `${flag} ${file} is larger than ${SECRET_FILE_MAX} bytes` };
  const value = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (value === '' || /[\r\n]/.test(value))
    return { ok: false, error: `${flag} ${file} must hold the secret on one line` };
  return { ok: true, value };
}
