/**
 * The desktop app's forwarding secrets (target URLs, tokens, passwords, signing keys), kept encrypted by
 * the OS keychain through Electron's safeStorage: a small JSON file in the data folder (mode 0600,
 * replaced atomically) that holds, per target id, the base64 of `encryptString(JSON of the secret)`.
 * It takes safeStorage as handed in (Electron main's; tests hand in the Electron double's). The main
 * process decrypts and passes the secrets to the engine host over the host protocol; they never enter
 * the settings file, a window push, a log line or a sentence. Refusals and problems are facts
 * (`ForwardWords`: the window words them, forwardWordsEnglish gives the log's English) naming the target
 * id only.
 * A Linux desktop without a secret store (`basic_text`: a hard-coded password) is refused, not trusted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ForwardWords, VaultFileFault } from '../../common/forward-words.ts';
import { FORWARD_TARGETS_MAX, type ForwardSecret, TARGET_ID } from '../../common/forwarding.ts';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export const VAULT_FILE = 'forward-secrets.json';
const VAULT_BYTES_MAX = 256 * 1024;
const SECRET_TEXT_MAX = 8192;

export type VaultResult = { ok: true } | { ok: false; words: ForwardWords };

function isSecret(v: unknown): v is ForwardSecret {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  if (typeof o.url !== 'string') return false;
  return ['token', 'user', 'password', 'signingKey'].every(
    (k) => o[k] === undefined || typeof o[k] === 'string',
  );
}

export class SecretVault {
  /** What reading the file found wrong since the last load(), reported there once. */
  #problems: ForwardWords[] = [];
  #asides = 0;

  constructor(
    readonly file: string,
    private readonly storage: SafeStorageLike,
  ) {}

  /** Why secrets cannot be kept safely here, or null when they can. */
  unavailable(): ForwardWords | null {
    if (!this.storage.isEncryptionAvailable()) return { code: 'keychainMissing' };
    if (this.storage.getSelectedStorageBackend?.() === 'basic_text') return { code: 'keychainBasicText' };
    return null;
  }

  /** Every secret that decrypts; one that does not (another user's, a reset keychain) is left out and named. */
  load(): { secrets: Record<string, ForwardSecret>; problems: ForwardWords[] } {
    const secrets: Record<string, ForwardSecret> = {};
    const stored = this.#read();
    const problems = this.#problems;
    this.#problems = [];
    if (Object.keys(stored).length === 0) return { secrets, problems };
    const why = this.unavailable();
    if (why) return { secrets, problems: [why] };
    for (const [id, blob] of Object.entries(stored)) {
      try {
        const parsed: unknown = JSON.parse(this.storage.decryptString(Buffer.from(blob, 'base64')));
        if (isSecret(parsed)) secrets[id] = parsed;
        else problems.push({ code: 'secretUnreadable', id });
      } catch {
        problems.push({ code: 'secretUndecryptable', id });
      }
    }
    return { secrets, problems };
  }

  set(id: string, secret: ForwardSecret): VaultResult {
    if (!TARGET_ID.test(id)) return { ok: false, words: { code: 'badId' } };
    const why = this.unavailable();
    if (why) return { ok: false, words: why };
    const text = JSON.stringify(secret);
    if (text.length > SECRET_TEXT_MAX) return { ok: false, words: { code: 'secretTooLong', id } };
    const stored = this.#read();
    if (!Object.hasOwn(stored, id) && Object.keys(stored).length >= FORWARD_TARGETS_MAX)
      return { ok: false, words: { code: 'tooMany', max: FORWARD_TARGETS_MAX } };
    stored[id] = this.storage.encryptString(text).toString('base64');
    return this.#write(stored);
  }

  remove(id: string): VaultResult {
    const stored = this.#read();
    if (!Object.hasOwn(stored, id)) return { ok: true };
    delete stored[id];
    return this.#write(stored);
  }

  /**
   * The stored blobs. A file that is there but cannot be read as a vault (too large, not JSON, another
   * shape, entries that are not a target id and a blob) is moved aside, never overwritten by the next
   * save, and named in `problems` once: its secrets are lost to this app, the user enters them again.
   */
  #read(): Record<string, string> {
    let text: string;
    try {
      if (fs.statSync(this.file).size > VAULT_BYTES_MAX) return this.#moveAside('tooLarge');
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return {};
      return this.#moveAside('unreadable');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return this.#moveAside('notJson');
    }
    const secrets = parsed && typeof parsed === 'object' ? (parsed as { secrets?: unknown }).secrets : null;
    if (!secrets || typeof secrets !== 'object' || Array.isArray(secrets)) return this.#moveAside('noList');
    const out: Record<string, string> = Object.create(null);
    for (const [id, blob] of Object.entries(secrets)) {
      if (!(TARGET_ID.test(id) && typeof blob === 'string' && blob.length <= SECRET_TEXT_MAX * 2))
        return this.#moveAside('badEntry');
      out[id] = blob;
    }
    return out;
  }

  #moveAside(why: VaultFileFault): Record<string, string> {
    const aside = `${this.file}.unreadable-${process.pid}-${this.#asides++}`;
    try {
      fs.renameSync(this.file, aside);
      this.#problems.push({ code: 'vaultMovedAside', why, aside: path.basename(aside) });
    } catch {
      this.#problems.push({ code: 'vaultUnusable', why });
    }
    return {};
  }

  #write(secrets: Record<string, string>): VaultResult {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ version: 1, secrets }), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
      return { ok: true };
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
      return { ok: false, words: { code: 'vaultSaveFailed', errno: code.slice(0, 40) } };
    }
  }
}
