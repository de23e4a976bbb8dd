/**
 * Writing a kubeconfig file safely: read it with a stamp (content hash, size, mtime), and later replace
 * it atomically only if it still matches that stamp. The new content goes to a temp file in the folder
 * of the real file (a symlink is followed, and stays a link to it), with the same mode (and owner, where
 * the process may set it), is flushed, then renamed over the real file. kubectl's own lock (`<file>.lock`,
 * created exclusively by client-go's ModifyConfig) is taken for the time of the write, so the two never
 * write at once. Every refusal is a KubeconfigWriteError: a kind and one sentence; nothing is changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import type { ErrorKind } from '../../common/errors.ts';
import { wordsEnglish } from '../../common/i18n/words-text.ts';
import { isObj } from '../../common/json-guards.ts';
import type { KubeconfigWords } from '../../common/kubeconfig-words.ts';
import { shownText } from '../log/redact.ts';

import { KUBECONFIG_MAX_BYTES } from './kubeconfig-file.ts';

export { KUBECONFIG_MAX_BYTES };

/** A path or name as words carry it: through the text gate, short enough for the check where they arrive. */
const VALUE_MAX = 240;

/**
 * A refusal as facts (`words`, worded by the window in its language) and their English (the CLI's and
 * the logs' sentence, from the same catalog), with `detail` (the loader's own English) after it there.
 */
export class KubeconfigWriteError extends Error {
  readonly words: KubeconfigWords;
  constructor(
    readonly kind: ErrorKind,
    words: KubeconfigWords,
    detail = '',
  ) {
    const gated = Object.fromEntries(
      Object.entries(words).map(([k, v]) => [k, typeof v === 'string' ? shownText(v, VALUE_MAX) : v]),
    ) as KubeconfigWords;
    const english = wordsEnglish(gated);
    super(shownText(detail === '' ? english : `${english} (${detail})`, SENTENCE_MAX));
    this.words = gated;
    this.name = 'KubeconfigWriteError';
  }
}

export interface FileStamp {
  /** The file the path leads to (symlinks resolved): the one that is replaced. */
  real: string;
  text: string;
  sha256: string;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
}

const code = (e: unknown) => (isObj(e) && typeof e.code === 'string' ? e.code : String(e));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

function readBytes(file: string): { real: string; st: fs.Stats; bytes: Buffer } {
  let real: string;
  let st: fs.Stats;
  try {
    real = fs.realpathSync(file);
    st = fs.statSync(real);
  } catch (e) {
    if (code(e) === 'ENOENT') throw new KubeconfigWriteError('not-found', { code: 'kubeMissing', file });
    throw new KubeconfigWriteError('config', { code: 'kubeUnreadable', file, errno: code(e) });
  }
  if (!st.isFile()) throw new KubeconfigWriteError('config', { code: 'kubeNotFile', file });
  if (st.size > KUBECONFIG_MAX_BYTES)
    throw new KubeconfigWriteError('too-large', {
      code: 'kubeTooLarge',
      file,
      mib: KUBECONFIG_MAX_BYTES / 1024 / 1024,
    });
  try {
    return { real, st, bytes: fs.readFileSync(real) };
  } catch (e) {
    throw new KubeconfigWriteError('config', { code: 'kubeUnreadable', file, errno: code(e) });
  }
}

/** Reads `file` for a later write; refuses one that cannot be replaced (read-only, folder not writable). */
export function readStamped(file: string): FileStamp {
  const { real, st, bytes } = readBytes(file);
  // Root may write anything: a file nobody may write is the user's "do not change this", kept as such.
  let writable = (st.mode & 0o222) !== 0;
  try {
    fs.accessSync(real, fs.constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable)
    throw new KubeconfigWriteError('forbidden', { code: 'kubeReadOnly', file, mode: octal(st.mode) });
  try {
    fs.accessSync(path.dirname(real), fs.constants.W_OK);
  } catch {
    throw new KubeconfigWriteError('forbidden', {
      code: 'kubeFolderLocked',
      file,
      dir: path.dirname(real),
    });
  }
  const text = bytes.toString('utf8');
  if (Buffer.compare(Buffer.from(text, 'utf8'), bytes) !== 0)
    throw new KubeconfigWriteError('invalid', { code: 'kubeNotUtf8', file });
  return {
    real,
    text,
    sha256: sha256(bytes),
    size: st.size,
    mtimeMs: st.mtimeMs,
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
  };
}

function sameAsRead(file: string, read: FileStamp): boolean {
  try {
    const now = readBytes(file);
    return (
      now.real === read.real &&
      now.st.size === read.size &&
      now.st.mtimeMs === read.mtimeMs &&
      sha256(now.bytes) === read.sha256
    );
  } catch {
    return false;
  }
}

function takeLock(file: string): string {
  const lock = `${file}.lock`;
  try {
    fs.closeSync(fs.openSync(lock, 'wx', 0o600));
    return lock;
  } catch (e) {
    if (code(e) === 'EEXIST') throw new KubeconfigWriteError('conflict', { code: 'kubeLockHeld', lock });
    throw new KubeconfigWriteError('forbidden', { code: 'kubeLockFailed', lock, errno: code(e) });
  }
}

/** Replaces the file `read` came from with `text`, unless it changed since; throws a KubeconfigWriteError. */
export function writeKubeconfigAtomically(file: string, read: FileStamp, text: string): void {
  const lock = takeLock(file);
  const dir = path.dirname(read.real);
  const temp = path.join(dir, `.${path.basename(read.real)}.gpu-fleet-${randomBytes(6).toString('hex')}.tmp`);
  let renamed = false;
  try {
    if (!sameAsRead(file, read)) throw new KubeconfigWriteError('conflict', { code: 'kubeChanged', file });
    const fd = fs.openSync(temp, 'wx', read.mode & 0o777);
    try {
      fs.writeFileSync(fd, text, 'utf8');
      fs.fchmodSync(fd, read.mode); // the umask narrowed the mode openSync gave it
      const uid = process.getuid?.();
      if (uid !== undefined && (uid !== read.uid || process.getgid?.() !== read.gid))
        fs.fchownSync(fd, read.uid, read.gid);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, read.real);
    renamed = true;
    syncDir(dir);
  } catch (e) {
    if (e instanceof KubeconfigWriteError) throw e;
    throw new KubeconfigWriteError('forbidden', { code: 'kubeReplaceFailed', file, errno: code(e) });
  } finally {
    if (!renamed) fs.rmSync(temp, { force: true });
    fs.rmSync(lock, { force: true });
  }
}

/** Makes the rename durable; some platforms cannot open a folder for that, which loses only durability. */
function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // The rename itself has happened.
  }
}
