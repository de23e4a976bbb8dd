/**
 * Electron's safeStorage (the synchronous API of Electron 45) as a double: `isEncryptionAvailable()` is
 * false until the app is ready (as on Linux and Windows); `encryptString` returns a Buffer that does
 * not contain the text (AES-256-GCM under a key of this double, standing in for the OS keychain's) and
 * throws while encryption is unavailable; `decryptString` takes only a Buffer and throws on bytes it
 * did not make; `getSelectedStorageBackend()` (Linux) is `gnome_libsecret`, or `basic_text` when a test
 * plays a desktop without a secret store (Electron then encrypts with a hard-coded password).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type StorageBackend =
  | 'basic_text'
  | 'gnome_libsecret'
  | 'kwallet'
  | 'kwallet5'
  | 'kwallet6'
  | 'unknown';

export class SafeStorageDouble {
  readonly #key = randomBytes(32);
  available = true;
  backend: StorageBackend = 'gnome_libsecret';

  constructor(private readonly ready: () => boolean) {}

  isEncryptionAvailable(): boolean {
    return this.ready() && this.available;
  }

  encryptString(plainText: string): Buffer {
    if (typeof plainText !== 'string') throw new TypeError('Expected plainText to be a string');
    if (!this.isEncryptionAvailable())
      throw new Error(
        'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
      );
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from('v10'), iv, cipher.getAuthTag(), body]);
  }

  decryptString(encrypted: Buffer): string {
    if (!Buffer.isBuffer(encrypted))
      throw new TypeError('Expected the first argument of decryptString() to be a buffer');
    if (!this.isEncryptionAvailable())
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.',
      );
    try {
      if (encrypted.subarray(0, 3).toString() !== 'v10') throw new Error('prefix');
      const decipher = createDecipheriv('aes-256-gcm', this.#key, encrypted.subarray(3, 15));
      decipher.setAuthTag(encrypted.subarray(15, 31));
      return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
  }

  getSelectedStorageBackend(): StorageBackend {
    return this.backend;
  }
}
