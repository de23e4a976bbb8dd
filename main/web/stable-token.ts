/**
 * The opt-in stable session token of browser mode (`gpu-fleet serve --stable-token`): kept in a file of
 * the config folder so the address, and a bookmark of it, survive a restart. The file is a credential
 * to the user's clusters' view: it is made 0600 (in a folder made 0700) and a file that is not a regular
 * file, not the user's, readable by others, or not holding a token is refused with one sentence, never
 * used or silently replaced.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';

export const STABLE_TOKEN_FILE = 'serve-token';
/** A token as the bridge makes one (32 random bytes, base64url); a longer user-made one is fine too. */
const TOKEN = /^[A-Za-z0-9_-]{32,256}$/;
const MAX_BYTES = 1024;

/** A stable-token file that cannot be used; the message is the one sentence the CLI prints. */
export class StableTokenError extends Error {}

export interface StableTokenOptions {
  platform?: NodeJS.Platform;
  /** The user the file must belong to (POSIX); defaults to this process's. */
  uid?: number | null;
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : undefined;
}

/** Reads the token of `dir`'s stable-token file, making the file with a new token when there is none. */
export async function stableToken(dir: string, opts: StableTokenOptions = {}): Promise<string> {
  const platform = opts.platform ?? process.platform;
  const posix = platform !== 'win32';
  const uid = opts.uid === undefined ? (process.getuid?.() ?? null) : opts.uid;
  const file = path.join(dir, STABLE_TOKEN_FILE);
  const refuse = (why: string) => new StableTokenError(`The stable token file ${file} ${why}.`);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | (posix ? constants.O_NOFOLLOW : 0));
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT') return makeToken(dir, file, refuse);
    if (code === 'ELOOP')
      throw refuse('is a symbolic link, not a regular file: replace it with the file itself');
    throw refuse(`cannot be read (${code ?? String(e)})`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse('is not a regular file');
    if (posix && uid !== null && stat.uid !== uid)
      throw refuse('belongs to another user: delete it, and a new one is made');
    if (posix && (stat.mode & 0o077) !== 0)
      throw refuse(
        `can be read by other users (mode ${(stat.mode & 0o777).toString(8)}): run chmod 600 on it, or delete it for a new one`,
      );
    if (stat.size > MAX_BYTES) throw refuse('is too large to hold a token: delete it, and a new one is made');
    const text = (await handle.readFile({ encoding: 'utf8' })).trim();
    if (!TOKEN.test(text))
      throw refuse(
        'does not hold a token (32 to 256 letters, digits, - or _): delete it, and a new one is made',
      );
    return text;
  } finally {
    await handle.close();
  }
}

async function makeToken(dir: string, file: string, refuse: (why: string) => Error): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    // 'wx': never over a file that appeared meanwhile; the mode is set at creation, not after.
    await fs.writeFile(file, `${token}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    throw refuse(`cannot be created (${errorCode(e) ?? String(e)})`);
  }
  return token;
}
