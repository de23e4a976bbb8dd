/**
 * isOurFrame, the frame half of the IPC sender check: only a top frame showing a page of our origin. An
 * origin that does not parse matches nothing, not even a frame whose URL does not parse either.
 */
import { describe, expect, it } from 'vitest';
import { APP_INDEX_URL, APP_ORIGIN, type FrameLike, isOurFrame } from './app-origin.ts';

const top = (url: string): FrameLike => ({ url, parent: null });

describe('isOurFrame', () => {
  it('accepts a top frame showing a page of our origin (the app scheme, or the dev server)', () => {
    expect(isOurFrame(top(APP_INDEX_URL), APP_ORIGIN)).toBe(true);
    expect(isOurFrame(top(`${APP_ORIGIN}/settings?x=1#y`), APP_ORIGIN)).toBe(true);
    expect(isOurFrame(top('http://localhost:5173/index.html'), 'http://localhost:5173')).toBe(true);
  });

  it('refuses a subframe of our origin, no frame, and a frame of another origin', () => {
    expect(isOurFrame({ url: APP_INDEX_URL, parent: top(APP_INDEX_URL) }, APP_ORIGIN)).toBe(false);
    expect(isOurFrame(null, APP_ORIGIN)).toBe(false);
    expect(isOurFrame(undefined, APP_ORIGIN)).toBe(false);
    expect(isOurFrame(top('https://evil.example/index.html'), APP_ORIGIN)).toBe(false);
    expect(isOurFrame(top('gpu-fleet://other/index.html'), APP_ORIGIN)).toBe(false);
    expect(isOurFrame(top('http://localhost:5174/'), 'http://localhost:5173')).toBe(false);
  });

  it('refuses every frame when the origin does not parse, also one whose URL does not parse', () => {
    for (const origin of ['', 'not a url', 'about:blank'])
      for (const url of ['', 'not a url', 'about:blank', APP_INDEX_URL])
        expect(isOurFrame(top(url), origin), `${origin} / ${url}`).toBe(false);
  });
});
