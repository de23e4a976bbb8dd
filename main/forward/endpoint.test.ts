/** Target URLs, refused at the door with a sentence that never repeats the path (it may be the secret). */
import { describe, expect, it } from 'vitest';
import { parseEndpoint } from './endpoint.ts';

describe('parseEndpoint', () => {
  it('splits an ntfy URL into server and topic, with a base path', () => {
    expect(parseEndpoint('ntfy', 'http://127.0.0.1:8090/gpu-alerts')).toMatchObject({
      ok: true,
      endpoint: {
        host: 'http://127.0.0.1:8090',
        ntfy: { base: 'http://127.0.0.1:8090', topic: 'gpu-alerts' },
      },
    });
    expect(parseEndpoint('ntfy', 'https://example.invalid/ntfy/gpu_1')).toMatchObject({
      ok: true,
      endpoint: { ntfy: { base: 'https://example.invalid/ntfy', topic: 'gpu_1' } },
    });
  });

  it.each([
    ['ntfy', 'http://127.0.0.1:8090/', 'must end in a topic'],
    ['ntfy', 'http://127.0.0.1:8090/docs', 'must end in a topic'],
    ['ntfy', `http://127.0.0.1:8090/${'a'.repeat(65)}`, 'must end in a topic'],
    ['ntfy', 'http://127.0.0.1:8090/t?x=1', 'without a ?query'],
    ['webhook', 'ftp://127.0.0.1/x', 'http:// or https://'],
    ['slack', 'http://user:hunter2@127.0.0.1/T000/B000/XXXX', 'carries a user or password'],
    ['discord', 'not a url', 'is not a URL'],
    ['webhook', 'http://127.0.0.1/x#frag', '#fragment'],
  ] as const)('%s %s is refused (%s)', (kind, url, words) => {
    const out = parseEndpoint(kind, url);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error).toContain(words);
      expect(out.error).not.toContain('hunter2');
      expect(out.error).not.toContain('XXXX');
    }
  });
});
