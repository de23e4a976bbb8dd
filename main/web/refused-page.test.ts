import { describe, expect, it } from 'vitest';
import { acceptedLanguages, refusedPage } from './refused-page.ts';

describe('the page for a refused session', () => {
  it('orders Accept-Language by q, then by place, and drops * and q=0', () => {
    expect(acceptedLanguages('en;q=0.5, ko-KR, ja;q=0.8, *;q=0.1, fr;q=0')).toEqual(['ko-KR', 'ja', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('says how to get back in, in the browser’s language, with the command in <code> and nothing raw', () => {
    const ko = refusedPage('ko-KR,ko;q=0.9,en;q=0.8');
    expect(ko).toContain('<html lang="ko">');
    expect(ko).toContain('새 세션 토큰');
    expect(ko).toContain('<code>gpu-fleet serve --port N --stable-token</code>');
    const en = refusedPage(undefined);
    expect(en).toContain('does not know this page&#39;s session');
    expect(en).not.toMatch(/Refused|401/);
  });
});
