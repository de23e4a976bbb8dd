import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findExecutable, pluginPath } from './exec-path.ts';

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('pluginPath', () => {
  it.each([
    '/usr/local/bin',
    '/opt/homebrew/bin',
    '/snap/bin',
    '/home/u/.local/bin',
    '/home/u/bin',
    '/home/u/go/bin',
    '/home/u/.krew/bin',
    '/usr/lib/google-cloud-sdk/bin',
    '/home/u/google-cloud-sdk/bin',
    '/home/u/.azure-kubelogin',
  ])('adds %s after the desktop PATH', (want) => {
    const p = pluginPath({ PATH: '/usr/bin:/bin' }, '/home/u', 'linux').split(':');
    expect(p.slice(0, 2)).toEqual(['/usr/bin', '/bin']);
    expect(p).toContain(want);
    expect(new Set(p).size).toBe(p.length);
  });

  it('honours GOPATH and KREW_ROOT', () => {
    const p = pluginPath({ PATH: '', GOPATH: '/g', KREW_ROOT: '/k' }, '/home/u', 'linux').split(':');
    expect(p).toEqual(expect.arrayContaining(['/g/bin', '/k/bin']));
  });
});

describe('findExecutable', () => {
  it('finds an executable file on the path and skips plain files', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exe-'));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    fs.writeFileSync(path.join(a, 'tool'), 'not executable', { mode: 0o644 });
    fs.writeFileSync(path.join(b, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findExecutable('tool', `${a}:${b}`, 'linux')).toBe(path.join(b, 'tool'));
    expect(findExecutable('nope', `${a}:${b}`, 'linux')).toBeNull();
    expect(findExecutable(path.join(b, 'tool'), '', 'linux')).toBe(path.join(b, 'tool'));
  });
});
