import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contextFingerprint } from './fingerprint.ts';
import type { KubeconfigLoad } from './kubeconfig-types.ts';
import type { KubeconfigWatch } from './kubeconfig-watch.ts';
import { watchKubeconfig } from './kubeconfig-watch.ts';

const config = (contexts: string[], token = 't') => `
clusters:
- name: c
  cluster: {server: "https://10.0.0.1:6443"}
users:
- name: u
  user: {token: ${token}}
contexts:
${contexts.map((n) => `- name: ${n}\n  context: {cluster: c, user: u}`).join('\n')}
`;

let dir = '';
let watch: KubeconfigWatch | null = null;
afterEach(() => {
  watch?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(files: string[]) {
  const loads: KubeconfigLoad[] = [];
  let notify = () => {};
  watch = watchKubeconfig({ env: { KUBECONFIG: files.join(':') }, debounceMs: 30 }, (l) => {
    loads.push(l);
    notify();
  });
  const next = (what: string) =>
    new Promise<KubeconfigLoad>((resolve, reject) => {
      const n = loads.length;
      const t = setTimeout(() => reject(new Error(`no reload for ${what}`)), 5000);
      notify = () => {
        const l = loads[n];
        if (l) {
          clearTimeout(t);
          resolve(l);
        }
      };
    });
  return { loads, next };
}

const names = (l: KubeconfigLoad) => (l.kind === 'loaded' ? l.contexts.map((c) => c.name) : []);

describe('watchKubeconfig', () => {
  it('reloads when a file is rewritten in place or replaced by rename, keeping fingerprints of unchanged contexts', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kcw-'));
    const f = path.join(dir, 'config');
    fs.writeFileSync(f, config(['a']), { mode: 0o600 });
    const { next } = start([f]);

    let p = next('in-place write');
    fs.writeFileSync(f, config(['a', 'b']));
    const first = await p;
    expect(names(first)).toEqual(['a', 'b']);

    p = next('rename');
    const tmp = path.join(dir, '.config.tmp');
    fs.writeFileSync(tmp, config(['a', 'b'], 'rotated'), { mode: 0o600 });
    fs.renameSync(tmp, f);
    const second = await p;
    expect(names(second)).toEqual(['a', 'b']);
    if (first.kind !== 'loaded' || second.kind !== 'loaded') throw new Error('not loaded');
    const fp = (l: typeof first, i: number) => {
      const c = l.contexts[i];
      if (!c) throw new Error('missing');
      return contextFingerprint(c);
    };
    expect(fp(second, 0)).not.toBe(fp(first, 0));

    // After a rename the file watch is renewed: a later in-place edit is still seen.
    p = next('edit after rename');
    fs.writeFileSync(f, config(['a', 'b', 'c'], 'rotated'));
    expect(names(await p)).toEqual(['a', 'b', 'c']);
  });

  it('notices a KUBECONFIG file that appears later', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kcw-'));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.writeFileSync(a, config(['a']), { mode: 0o600 });
    const { next } = start([a, b]);
    const p = next('new file');
    fs.writeFileSync(
      b,
      config(['from-b']).replaceAll('name: c', 'name: c2').replace('cluster: c,', 'cluster: c2,'),
      {
        mode: 0o600,
      },
    );
    expect(names(await p)).toEqual(['a', 'from-b']);
  });
});
