// The facts of use-context's refusals, made for real (files changed, locked, read-only, broken): each
// carries its words, and its sentence (the CLI's) is their English from the catalog, nothing else.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asErrorInfo } from '../../common/errors.ts';
import { wordsEnglish } from '../../common/i18n/words-text.ts';
import type { KubeconfigWords } from '../../common/kubeconfig-words.ts';
import { KUBECONFIG_MAX_BYTES } from './kubeconfig-write.ts';
import { commitUseContext, prepareUseContext, UseContextError, useContext } from './use-context.ts';

const CONFIG = `apiVersion: v1
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ucw-'));
  file = path.join(dir, 'config');
  fs.writeFileSync(file, CONFIG, { mode: 0o600 });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const opts = (explicitPath: string | null = file, env: Record<string, string> = {}) => ({
  explicitPath,
  env,
  platform: 'linux' as const,
});

/** The refusal of `fn` as it crosses to the window: its kind, sentence and words. */
function refused(fn: () => unknown): { kind: string; message: string; words: KubeconfigWords } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof UseContextError)) throw e;
    const info = asErrorInfo(e);
    if (!info?.words) throw new Error(`no words on: ${e.message}`);
    return { kind: info.kind, message: info.message, words: info.words as KubeconfigWords };
  }
  throw new Error('expected a refusal');
}

/** Its words, checking that its sentence is their English (the CLI and the window say the same). */
function words(fn: () => unknown): KubeconfigWords {
  const r = refused(fn);
  expect(r.message).toBe(wordsEnglish(r.words));
  return r.words;
}

describe("use-context's refusals carry their facts", () => {
  it('a bad name, by its fault', () => {
    expect(words(() => useContext('', opts()))).toEqual({ code: 'kubeBadName', fault: 'empty', max: 253 });
    expect(words(() => useContext('x'.repeat(254), opts()))).toMatchObject({ fault: 'tooLong' });
    expect(words(() => useContext('two\u202e', opts()))).toMatchObject({ fault: 'control' });
  });

  it('no kubeconfig: the --kubeconfig file, or every file KUBECONFIG names', () => {
    const none = path.join(dir, 'none');
    expect(words(() => useContext('two', opts(none)))).toEqual({ code: 'kubeFlagMissing', file: none });
    const other = path.join(dir, 'other');
    expect(words(() => useContext('two', opts(null, { KUBECONFIG: `${none}:${other}`, HOME: dir })))).toEqual(
      {
        code: 'kubeNoConfig',
        files: `${none}, ${other}`,
      },
    );
  });

  it('a context the kubeconfig does not have, its name through the text gate', () => {
    expect(words(() => useContext('three', opts()))).toEqual({
      code: 'kubeNoContext',
      name: 'three',
      files: file,
    });
  });

  it('a broken or oversized file; a broken one keeps the loader detail after the sentence', () => {
    fs.writeFileSync(file, 'apiVersion: v1\ncontexts: [\n');
    const r = refused(() => useContext('two', opts()));
    expect(r.words).toEqual({ code: 'kubeBroken', file });
    expect(r.message.startsWith(`${wordsEnglish(r.words)} (`)).toBe(true);
    fs.writeFileSync(file, `${CONFIG}# ${'x'.repeat(KUBECONFIG_MAX_BYTES)}\n`);
    expect(words(() => useContext('two', opts()))).toEqual({ code: 'kubeTooLarge', file, mib: 4 });
  });

  it('read-only, not UTF-8, a held lock, and a file changed since it was read', () => {
    fs.chmodSync(file, 0o400);
    expect(words(() => useContext('two', opts()))).toEqual({ code: 'kubeReadOnly', file, mode: '400' });
    fs.chmodSync(file, 0o600);
    fs.appendFileSync(file, Buffer.from([0x23, 0x20, 0xff, 0x0a]));
    expect(words(() => useContext('two', opts()))).toEqual({ code: 'kubeNotUtf8', file });
    fs.writeFileSync(file, CONFIG);
    fs.writeFileSync(`${file}.lock`, '');
    expect(words(() => useContext('two', opts()))).toEqual({ code: 'kubeLockHeld', lock: `${file}.lock` });
    fs.rmSync(`${file}.lock`);
    const plan = prepareUseContext('two', opts());
    fs.writeFileSync(file, CONFIG.replace('kind: Config', 'kind:  Config'));
    expect(words(() => commitUseContext(plan))).toEqual({ code: 'kubeChanged', file });
  });

  it('a value too long for the words is cut by the text gate, so the window still gets them', () => {
    const deep = path.join(dir, 'd'.repeat(200), 'e'.repeat(200));
    const w = words(() => useContext('two', opts(path.join(deep, 'config'))));
    expect(w.code).toBe('kubeFlagMissing');
    expect('file' in w && w.file.length).toBeLessThanOrEqual(300);
  });
});
