/**
 * Where the window's page comes from: the app's own scheme (served by protocol.handle, app-protocol.ts)
 * or, in development, Vite's dev server. IPC accepts only a top frame of that origin. No 'electron'
 * import: the sender check and its tests use these directly.
 */
export const APP_SCHEME = 'gpu-fleet';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** The part of Electron's WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}

/** Scheme and host of a URL, or null when it does not parse (compared as text: custom schemes have no `origin`). */
function schemeAndHost(url: string): string | null {
  try {
    const u = new URL(url);
    return u.host === '' ? null : `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/** True when the frame is a top frame (no parent) showing a page of `origin`. */
export function isOurFrame(frame: FrameLike | null | undefined, origin: string): boolean {
  if (!frame || frame.parent !== null) return false;
  const ours = schemeAndHost(origin);
  return ours !== null && schemeAndHost(frame.url) === ours;
}
