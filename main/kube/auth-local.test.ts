import { describe, expect, it } from 'vitest';
import { LocalAuthSource } from './auth-local.ts';
import { systemClock } from './clock.ts';
import { KubeError } from './errors.ts';

describe('LocalAuthSource reads the files a kubeconfig names as the kubeconfig itself is read', () => {
  it.skipIf(process.platform === 'win32')(
    'a certificate-authority that is /dev/zero is refused unread with a sentence (no hang, no memory)',
    () => {
      const auth = new LocalAuthSource(
        { name: 'c', server: 'https://127.0.0.1:1', caFile: '/dev/zero', skipTLSVerify: false },
        { name: 'u' },
        systemClock,
      );
      let err: unknown;
      try {
        auth.options();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KubeError);
      expect((err as KubeError).message).toBe(
        'The kubeconfig refers to /dev/zero, which is not a regular file (it is a character device).',
      );
    },
  );
});
