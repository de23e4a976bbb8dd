/**
 * The one reader of the local files the app is pointed at (the settings file, kubeconfigs and the
 * certificate, key and token files they name): only a regular file, of at most `maxBytes`. It lives in
 * the lowest layer that reads such files (settings); main/kube uses it too.
 *
 * The file is opened non-blocking (a FIFO would otherwise hang the open until a writer comes), then the
 * OPENED file is checked (fstat: a symlink to /dev/zero is a character device, refused), and at most
 * `maxBytes + 1` bytes are read, so a file that grows after the check still cannot cost more memory.
 */
import fs from 'node:fs';

export type BoundedRead =
  | { ok: true; bytes: Buffer }
  /** `why` completes "FILE …" (e.g. "is not a regular file (it is a FIFO)"). */
  | { ok: false; reason: 'missing' | 'not-regular' | 'too-large' | 'unreadable'; why: string };

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

const codeOf = (e: unknown) => (e instanceof Error && 'code' in e ? String(e.code) : 'EIO');

export function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

export function readBoundedFile(file: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    // O_NONBLOCK is undefined on Windows, where a FIFO is not a path one can open this way anyway.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = codeOf(e);
    return {
      ok: false,
      reason: code === 'ENOENT' ? 'missing' : 'unreadable',
      why: `cannot be read (${code})`,
    };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      return { ok: false, reason: 'not-regular', why: `is not a regular file (it is ${kindOf(st)})` };
    const tooLarge = { ok: false, reason: 'too-large', why: `is larger than ${mib(maxBytes)}` } as const;
    if (st.size > maxBytes) return tooLarge;
    // Read to the end, never past maxBytes + 1 bytes (the file may have grown since the fstat).
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(maxBytes + 1 - length, Math.max(st.size + 1 - length, 64 << 10)));
      if (chunk.length === 0) break;
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
    }
    if (length > maxBytes) return tooLarge;
    return { ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length) };
  } catch (e) {
    return { ok: false, reason: 'unreadable', why: `cannot be read (${codeOf(e)})` };
  } finally {
    fs.closeSync(fd);
  }
}
