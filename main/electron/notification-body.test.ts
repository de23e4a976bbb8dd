import { describe, expect, it } from 'vitest';
import { notificationBody } from './notification-body.ts';

describe('notificationBody', () => {
  it('escapes markup on Linux only, & first', () => {
    const body = 'omen: NotReady (runtime <containerd> & cni &amp; down)';
    expect(notificationBody(body, 'linux')).toBe(
      'omen: NotReady (runtime &lt;containerd&gt; &amp; cni &amp;amp; down)',
    );
    expect(notificationBody(body, 'darwin')).toBe(body);
    expect(notificationBody(body, 'win32')).toBe(body);
  });
});
