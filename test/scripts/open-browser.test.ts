/** `npm start` in browser mode opens the page only where a person can see it, never under CI or tests. */
import { describe, expect, it } from 'vitest';
import { browserOpener } from '../../scripts/open-browser.mjs';

const URL = 'http://127.0.0.1:4321/?token=t';

describe('which browser opener npm start runs', () => {
  it('Linux with a display (X11 or Wayland): xdg-open', () => {
    expect(browserOpener(URL, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [URL] });
    expect(browserOpener(URL, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({
      command: 'xdg-open',
      args: [URL],
    });
  });

  it('Linux without a display: none, and says why', () => {
    expect(browserOpener(URL, 'linux', {})).toEqual({
      skip: 'no desktop session (DISPLAY/WAYLAND_DISPLAY unset)',
    });
  });

  it('macOS: open; Windows: start through cmd with an empty window title', () => {
    expect(browserOpener(URL, 'darwin', {})).toEqual({ command: 'open', args: [URL] });
    expect(browserOpener(URL, 'win32', {})).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '""', URL],
      verbatim: true,
    });
  });

  it('never under CI or a test run, even with a display', () => {
    for (const env of [{ CI: 'true' }, { VITEST: 'true' }, { GPU_FLEET_NO_OPEN: '1' }])
      expect(browserOpener(URL, 'darwin', { ...env, DISPLAY: ':0' })).toEqual({
        skip: 'not opening a browser under CI or tests',
      });
  });
});
