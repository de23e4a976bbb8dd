import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFingerprint } from './fingerprint.ts';
import { contextInfos, findContext, loadKubeconfig, locateKubeconfigFiles } from './kubeconfig.ts';
import type { LoadedKubeconfig } from './kubeconfig-types.ts';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string, mode = 0o600) => {
  const f = path.join(dir, name);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text, { mode });
  fs.chmodSync(f, mode);
  return f;
};

const k3s = (server: string, token: string, current = 'default') => `
apiVersion: v1
kind: Config
current-context: ${current}
clusters:
- name: default
  cluster: {server: "${server}", certificate-authority: ca.crt}
users:
- name: default
  user: {token: ${token}}
contexts:
- name: default
  context: {cluster: default, user: default}
`;

function loaded(env: Record<string, string>, explicitPath?: string): LoadedKubeconfig {
  const r = loadKubeconfig({ env, home: dir, platform: 'linux', explicitPath });
  if (r.kind !== 'loaded') throw new Error(r.message);
  return r;
}

describe('locateKubeconfigFiles', () => {
  it.each([
    { explicitPath: '/x/flag', env: { KUBECONFIG: '/a:/b' }, source: 'flag', files: ['/x/flag'] },
    { explicitPath: undefined, env: { KUBECONFIG: '/a::/b:/a' }, source: 'env', files: ['/a', '/b'] },
    { explicitPath: undefined, env: { KUBECONFIG: '' }, source: 'default', files: ['/home/u/.kube/config'] },
    { explicitPath: undefined, env: {}, source: 'default', files: ['/home/u/.kube/config'] },
  ])('$source from %o', ({ explicitPath, env, source, files }) => {
    expect(locateKubeconfigFiles({ explicitPath, env, home: '/home/u', platform: 'linux' })).toEqual({
      source,
      files,
    });
  });

  it('splits KUBECONFIG on ; on Windows', () => {
    const r = locateKubeconfigFiles({ env: { KUBECONFIG: 'C:\\a;C:\\b' }, platform: 'win32', home: 'C:\\u' });
    expect(r.files).toHaveLength(2);
  });
});

describe('loadKubeconfig', () => {
  it('merges like kubectl: first file wins on duplicates, with a warning naming them', () => {
    const a = write('a/k3s.yaml', k3s('https://10.0.0.1:6443', 'tokA'));
    const b = write('b/k3s.yaml', k3s('https://10.0.0.2:6443', 'tokB'));
    const c = write('c.yaml', k3s('https://10.0.0.1:6443', 'tokA').replaceAll('default', 'other'));
    const kc = loaded({ KUBECONFIG: [a, b, c].join(':') });
    expect(kc.files).toEqual([a, b, c]);
    expect(kc.contexts.map((x) => x.name)).toEqual(['default', 'other']);
    expect(kc.currentContext).toBe('default');
    expect(findContext(kc, 'default')?.cluster?.cluster.server).toBe('https://10.0.0.1:6443');
    expect(findContext(kc, 'default')?.user?.user.token).toBe('tokA');
    const dups = kc.warnings.filter((w) => w.kind === 'duplicate');
    expect(dups.map((w) => w.message)).toEqual([
      expect.stringMatching(/cluster "default" in .*b\/k3s\.yaml is ignored: .*a\/k3s\.yaml defines/),
      expect.stringMatching(/user "default" in .*b\/k3s\.yaml/),
    ]);
    expect(kc.errors).toEqual([]);
  });

  it('takes current-context from the first file that sets one', () => {
    const a = write('a.yaml', 'apiVersion: v1\nkind: Config\n');
    const b = write(
      'b.yaml',
      k3s('https://h:1', 't').replace('current-context: default', 'current-context: default'),
    );
    expect(loaded({ KUBECONFIG: `${a}:${b}` }).currentContext).toBe('default');
  });

  it('resolves relative paths against the folder of the file that holds them', () => {
    const f = write(
      'sub/config',
      `clusters:
- name: c
  cluster: {server: "https://h:6443", certificate-authority: ../pki/ca.crt}
users:
- name: u
  user:
    client-certificate: certs/me.crt
    client-key: /abs/me.key
    exec: {command: ./bin/plugin, args: [x]}
- name: u2
  user: {exec: {command: gke-gcloud-auth-plugin}}
contexts:
- name: x
  context: {cluster: c, user: u, namespace: ml}
`,
    );
    const kc = loaded({}, f);
    const ctx = findContext(kc, 'x');
    expect(ctx?.cluster?.cluster.caFile).toBe(path.join(dir, 'pki/ca.crt'));
    expect(ctx?.user?.user.certFile).toBe(path.join(dir, 'sub/certs/me.crt'));
    expect(ctx?.user?.user.keyFile).toBe('/abs/me.key');
    expect(ctx?.user?.exec?.command).toBe(path.join(dir, 'sub/bin/plugin'));
    expect(ctx?.namespace).toBe('ml');
    expect(kc.source).toBe('flag');
  });

  it('warns on insecure-skip-tls-verify and on files others can read', () => {
    const f = write(
      'open.yaml',
      `clusters:
- name: lab
  cluster: {server: "https://h:6443", insecure-skip-tls-verify: true}
contexts:
- name: lab
  context: {cluster: lab}
`,
      0o644,
    );
    const kinds = loaded({ KUBECONFIG: f }).warnings.map((w) => [w.kind, w.message]);
    expect(kinds).toEqual([
      ['permissions', expect.stringMatching(/open\.yaml can be read by other users \(mode 644\).*chmod 600/)],
      ['insecure-skip-tls-verify', expect.stringMatching(/Cluster "lab" .* insecure-skip-tls-verify/)],
    ]);
  });

  it('reports a malformed file by name and still uses the others', () => {
    const bad = write('bad.yaml', 'clusters: [\n  - name: x\n  oops: : :\n');
    const shape = write('shape.yaml', 'clusters: {a: 1}\n');
    const good = write('good.yaml', k3s('https://h:1', 't'));
    const kc = loaded({ KUBECONFIG: [bad, shape, good].join(':') });
    expect(kc.errors).toEqual([
      { file: bad, message: expect.stringMatching(/bad\.yaml is not valid YAML/) },
      {
        file: shape,
        message: expect.stringMatching(/shape\.yaml is not a kubeconfig: "clusters" must be a list/),
      },
    ]);
    expect(kc.contexts.map((c) => c.name)).toEqual(['default']);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses unread what is not a regular file of at most 4 MiB (a FIFO, /dev/zero, a 5 GB sparse file), with a sentence, and uses the others',
    () => {
      const fifo = path.join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      const zero = path.join(dir, 'zero');
      fs.symlinkSync('/dev/zero', zero);
      const big = write('big.yaml', '# comments\n');
      fs.truncateSync(big, 5 * 1024 ** 3);
      const good = write('good.yaml', k3s('https://h:1', 't'));
      const kc = loaded({ KUBECONFIG: [fifo, zero, big, good].join(':') });
      const rule = 'a kubeconfig must be a regular file of at most 4 MiB.';
      expect(kc.errors).toEqual([
        { file: fifo, message: `${fifo} is not a regular file (it is a FIFO); ${rule}` },
        { file: zero, message: `${zero} is not a regular file (it is a character device); ${rule}` },
        { file: big, message: `${big} is larger than 4 MiB; ${rule}`, tooLarge: true },
      ]);
      expect(kc.contexts.map((c) => c.name)).toEqual(['default']);
    },
  );

  it('ignores, with a warning, a context whose name the app could not store (over 253 characters, control characters)', () => {
    const long = 'c'.repeat(254);
    const f = write(
      'names.yaml',
      `${k3s('https://h:1', 't')}- name: ${long}\n  context: {cluster: default, user: default}\n- name: "bad\\u0007bell"\n  context: {cluster: default, user: default}\n`,
    );
    const kc = loaded({}, f);
    expect(kc.contexts.map((c) => c.name)).toEqual(['default']);
    expect(kc.warnings.map((w) => w.message)).toEqual([
      `${f}: contexts[1]: A context name has at most 253 characters; that entry is ignored.`,
      `${f}: contexts[2]: A context name cannot contain control characters; that entry is ignored.`,
    ]);
  });

  it('keeps good entries of a file with a bad one, and warns', () => {
    const f = write(
      'mixed.yaml',
      `clusters:
- name: nosrv
  cluster: {}
- name: ok
  cluster: {server: "https://h:1"}
users:
- name: badexec
  user: {exec: {args: [a]}}
contexts:
- name: c1
  context: {cluster: ok, user: badexec}
- name: c2
  context: {cluster: nosrv}
`,
    );
    const kc = loaded({ KUBECONFIG: f });
    expect(kc.warnings.filter((w) => w.kind === 'invalid-entry').map((w) => w.message)).toEqual([
      expect.stringMatching(/cluster "nosrv" has no server; that entry is ignored/),
      expect.stringMatching(/user "badexec"\.exec has no command/),
    ]);
    expect(findContext(kc, 'c1')?.cluster?.cluster.name).toBe('ok');
    expect(findContext(kc, 'c1')?.user).toBeNull();
    expect(findContext(kc, 'c2')?.cluster).toBeNull();
  });

  it.each([
    {
      env: {},
      explicit: undefined,
      words: /No kubeconfig found \(looked at .*\.kube\/config\); try the demo cluster/,
    },
    { env: { KUBECONFIG: '/nope/a:/nope/b' }, explicit: undefined, words: /looked at \/nope\/a, \/nope\/b/ },
    { env: {}, explicit: '/nope/flag', words: /The kubeconfig file \/nope\/flag does not exist/ },
  ])('says clearly when there is no kubeconfig ($env $explicit)', ({ env, explicit, words }) => {
    const r = loadKubeconfig({ env, home: dir, platform: 'linux', explicitPath: explicit });
    expect(r.kind).toBe('none');
    if (r.kind === 'none') expect(r.message).toMatch(words);
  });

  it('uses ~/.kube/config when nothing else is set', () => {
    write('.kube/config', k3s('https://h:1', 't'));
    expect(loaded({}).source).toBe('default');
  });
});

describe('contextInfos', () => {
  it('lists names only, never credentials', () => {
    const f = write('config', k3s('https://10.0.0.1:6443', 'SECRET-TOKEN'));
    const infos = contextInfos(loaded({ KUBECONFIG: f }), (n) => n === 'default');
    expect(infos).toEqual([
      {
        name: 'default',
        cluster: 'default',
        server: 'https://10.0.0.1:6443',
        user: 'default',
        namespace: null,
        current: true,
        monitored: true,
        source: 'config',
      },
    ]);
    expect(JSON.stringify(infos)).not.toContain('SECRET');
  });
});

describe('contextFingerprint', () => {
  it('changes with the effective settings and never shows them', () => {
    const f = write('config', k3s('https://10.0.0.1:6443', 'SECRET-TOKEN'));
    const fp = () => {
      const ctx = findContext(loaded({ KUBECONFIG: f }), 'default');
      if (!ctx) throw new Error('no context');
      return contextFingerprint(ctx);
    };
    const first = fp();
    expect(fp()).toBe(first);
    expect(first).not.toContain('SECRET');
    write('ca.crt', 'a new CA');
    const withCa = fp();
    expect(withCa).not.toBe(first);
    write('config', k3s('https://10.0.0.1:6443', 'OTHER-TOKEN'));
    expect(fp()).not.toBe(withCa);
  });
});
