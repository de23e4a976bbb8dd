// The writer's refusals that need a file to change between read and write, and its limits.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KUBECONFIG_MAX_BYTES } from './kubeconfig-write.ts';
import {
  commitUseContext,
  prepareUseContext,
  shownPath,
  UseContextError,
  useContext,
} from './use-context.ts';

const CONFIG = `# mine
apiVersion: v1
kind: Config
current-context: one
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1"}
contexts:
- name: one
  context: {cluster: c}
- name: two
  context: {cluster: c}
`;

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'use-context-'));
  file = path.join(dir, 'config');
  fs.writeFileSync(file, CONFIG, { mode: 0o600 });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const opts = () => ({ explicitPath: file, env: {}, platform: 'linux' as const });
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UseContextError) return { kind: e.kind, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('use-context writes only a file that did not change since it was read', () => {
  it('refuses when the content changed (same size) between read and write', () => {
    const plan = prepareUseContext('two', opts());
    fs.writeFileSync(file, CONFIG.replace('# mine', '# MINE'));
    const now = fs.readFileSync(file, 'utf8');
    expect(refusal(() => commitUseContext(plan))).toEqual({
      kind: 'conflict',
      message: `${file} changed since GPU Fleet read it; nothing was written (try again).`,
    });
    expect(fs.readFileSync(file, 'utf8')).toBe(now);
    expect(fs.readdirSync(dir)).toEqual(['config']);
  });

  it('refuses when only the modification time changed', () => {
    const plan = prepareUseContext('two', opts());
    fs.utimesSync(file, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    expect(refusal(() => commitUseContext(plan)).kind).toBe('conflict');
    expect(fs.readFileSync(file, 'utf8')).toBe(CONFIG);
  });

  it('refuses when the file was replaced by a link to another file', () => {
    const plan = prepareUseContext('two', opts());
    const other = path.join(dir, 'other');
    fs.writeFileSync(other, CONFIG);
    fs.rmSync(file);
    fs.symlinkSync(other, file);
    expect(refusal(() => commitUseContext(plan)).kind).toBe('conflict');
    expect(fs.readFileSync(other, 'utf8')).toBe(CONFIG);
  });

  it('writes when nothing changed, and leaves no temp or lock file behind', () => {
    const plan = prepareUseContext('two', opts());
    expect(commitUseContext(plan)).toEqual({ name: 'two', file, previous: 'one', changed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(
      CONFIG.replace('current-context: one', 'current-context: two'),
    );
    expect(fs.readdirSync(dir)).toEqual(['config']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('use-context limits', () => {
  it('refuses a file larger than the cap', () => {
    fs.appendFileSync(file, `# ${'x'.repeat(KUBECONFIG_MAX_BYTES)}\n`);
    expect(refusal(() => useContext('two', opts())).kind).toBe('too-large');
  });

  it('refuses a file that is not UTF-8', () => {
    fs.appendFileSync(file, Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    expect(refusal(() => useContext('two', opts()))).toEqual({
      kind: 'invalid',
      message: `${file} is not UTF-8 text; GPU Fleet did not change it.`,
    });
  });

  it('refuses names that are empty, too long or carry control characters, before reading anything', () => {
    expect(refusal(() => useContext('', opts())).kind).toBe('invalid');
    expect(refusal(() => useContext('x'.repeat(254), opts())).kind).toBe('invalid');
    expect(refusal(() => useContext('two\u202e', opts())).message).toBe(
      'A context name cannot contain control characters.',
    );
  });

  // Root may create files anywhere, so this refusal can only be seen as another user.
  it.skipIf(process.getuid?.() === 0)('refuses a folder it cannot create the temp file in', () => {
    fs.chmodSync(dir, 0o500);
    try {
      expect(refusal(() => useContext('two', opts())).kind).toBe('forbidden');
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });

  it('names a missing kubeconfig in one sentence', () => {
    expect(refusal(() => useContext('two', { ...opts(), explicitPath: path.join(dir, 'none') }))).toEqual({
      kind: 'config',
      message: `The kubeconfig file ${path.join(dir, 'none')} does not exist.`,
    });
  });
});

describe('shownPath', () => {
  it('shows a file under the home folder as ~/…, and any other as it is', () => {
    expect(shownPath('/home/ana/.kube/config', '/home/ana')).toBe('~/.kube/config');
    expect(shownPath('/home/anabel/.kube/config', '/home/ana')).toBe('/home/anabel/.kube/config');
    expect(shownPath('/etc/kube/config', '')).toBe('/etc/kube/config');
  });
});
