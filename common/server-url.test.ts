import { describe, expect, it } from 'vitest';
import { displayServerUrl } from './server-url.ts';

describe('displayServerUrl', () => {
  it.each([
    ['https://admin:pw@host.example:6443/?token=abc', 'https://host.example:6443'],
    ['https://host.example:6443/', 'https://host.example:6443'],
    ['https://host.example/k8s/clusters/c-1?x=1#frag', 'https://host.example/k8s/clusters/c-1'],
    ['http://user@127.0.0.1:8001', 'http://127.0.0.1:8001'],
    ['https://[::1]:6443', 'https://[::1]:6443'],
    ['http://proxy.corp:3128', 'http://proxy.corp:3128'],
    ['socks5://u:p@127.0.0.1:1080', 'socks5://127.0.0.1:1080'],
    // Not URLs: credentials and queries still go.
    ['admin:pw@host:6443?token=x', 'host:6443'],
    ['https://a:b@[bad/x?token=1', 'https://[bad/x'],
    ['\u001b]0;t\u0007ftp\nhost', 'ftp host'],
  ])('%j → %j', (input, shown) => {
    expect(displayServerUrl(input)).toBe(shown);
  });

  it('resolves a relative address (a redirect Location) against a base', () => {
    expect(displayServerUrl('/login?next=/api', 'https://a:b@host:6443')).toBe('https://host:6443/login');
  });

  it('never shows userinfo or query, whatever the input', () => {
    for (const v of ['https://u:p@h/?t=1', 'u:p@h?t=1', 'x://u:p@h/p?t=1', 'https://h/p?t=u:p@x']) {
      const shown = displayServerUrl(v);
      expect(shown).not.toMatch(/u:p|t=1|\?/);
    }
  });
});
