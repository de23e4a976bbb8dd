// `gpu-fleet use-context` on a KUBECONFIG of two commented files, checked with the real kubectl when it is
// installed (like sim/kubectl.test.ts) and always with our own loader: only the current-context line of
// the file kubectl would write changes; the other file stays byte-identical.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliOnce } from '../../../test/helpers/cli-harness.ts';
import { loadKubeconfig } from '../../kube/kubeconfig.ts';

const run = promisify(execFile);
const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => fs.existsSync(p));
if (!KUBECTL) console.warn('kubectl not found in /usr/bin or /usr/local/bin: skipping its assertions');

const fileA = (current: string | null) => `# Home cluster: edited by hand, keep these comments.
apiVersion: v1
kind: Config
clusters:
  - name: home   # the NUC rack
    cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
contexts:
  - name: home
    context: {cluster: home, user: me}
${current === null ? '' : `current-context: ${current}   # switched often\n`}users:
  - name: me
    user:
      token: "tok-a"   # not a real token
`;
const FILE_B = `# Work clusters, from the platform team.
apiVersion: v1
kind: Config
current-context: work
contexts:
- name: work
  context:
    cluster: work
    user: work-user
- name: "arn:aws:eks:eu-west-1:123456789012:cluster/gpu"
  context: {cluster: work, user: work-user}
clusters:
- name: work
  cluster:
    server: https://127.0.0.1:2
users:
- name: work-user
  user: {token: "tok-b"}
# end of file
`;

let dir: string;
let a: string;
let b: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'use-context-cli-'));
  a = path.join(dir, 'a.yaml');
  b = path.join(dir, 'b.yaml');
  env = { KUBECONFIG: `${a}:${b}`, HOME: dir };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (file: string, text: string, mode = 0o600) => {
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
};
const kubectlCurrent = async (kubeconfigEnv: NodeJS.ProcessEnv) =>
  (
    await run(KUBECTL as string, ['config', 'current-context'], { env: { ...process.env, ...kubeconfigEnv } })
  ).stdout.trim();
const ourCurrent = (kubeconfigEnv: NodeJS.ProcessEnv, explicitPath: string | null = null) => {
  const load = loadKubeconfig({ env: kubeconfigEnv, explicitPath, platform: 'linux' });
  return load.kind === 'loaded' ? load.currentContext : null;
};
/** The lines that differ: [index, before, after] for a same-length edit. */
const changedLines = (before: string, after: string) => {
  const x = before.split('\n');
  const y = after.split('\n');
  expect(y.length).toBe(x.length);
  return x.flatMap((line, i) => (line === y[i] ? [] : [[i, line, y[i]]]));
};

describe('gpu-fleet use-context on a KUBECONFIG of two files', () => {
  it('changes only the current-context line of the first file; the second stays byte-identical', async () => {
    write(a, fileA('home'));
    write(b, FILE_B);
    const beforeA = fs.readFileSync(a, 'utf8');
    const beforeB = fs.readFileSync(b);
    const r = await runCliOnce(['use-context', 'work'], env);
    expect(r).toMatchObject({ code: 0, stdout: 'Switched to context "work".\n', stderr: '' });
    expect(changedLines(beforeA, fs.readFileSync(a, 'utf8'))).toEqual([
      [9, 'current-context: home   # switched often', 'current-context: work   # switched often'],
    ]);
    expect(fs.readFileSync(b).equals(beforeB)).toBe(true);
    expect(ourCurrent(env)).toBe('work');
    if (KUBECTL) expect(await kubectlCurrent(env)).toBe('work');
  });

  it('adds the line to the first file when only the second sets current-context, as kubectl does', async () => {
    write(a, fileA(null));
    write(b, FILE_B);
    const beforeA = fs.readFileSync(a, 'utf8');
    const beforeB = fs.readFileSync(b);
    const name = 'arn:aws:eks:eu-west-1:123456789012:cluster/gpu';
    expect((await runCliOnce(['use-context', name], env)).code).toBe(0);
    const afterA = fs.readFileSync(a, 'utf8');
    expect(afterA).toBe(`${beforeA}current-context: ${name}\n`);
    expect(fs.readFileSync(b).equals(beforeB)).toBe(true);
    expect(ourCurrent(env)).toBe(name);
    if (KUBECTL) expect(await kubectlCurrent(env)).toBe(name);
    // And back: the same line changes again, nothing else.
    expect((await runCliOnce(['use-context', 'home'], env)).code).toBe(0);
    expect(changedLines(afterA, fs.readFileSync(a, 'utf8'))).toEqual([
      [afterA.split('\n').length - 2, `current-context: ${name}`, 'current-context: home'],
    ]);
    if (KUBECTL) expect(await kubectlCurrent(env)).toBe('home');
  });

  it('writes the first file that exists when an earlier KUBECONFIG entry is missing', async () => {
    write(b, FILE_B);
    write(a, fileA('home'));
    const missing = path.join(dir, 'missing.yaml');
    const e = { KUBECONFIG: `${missing}:${b}:${a}`, HOME: dir };
    const beforeA = fs.readFileSync(a);
    expect((await runCliOnce(['use-context', 'home'], e)).code).toBe(0);
    expect(fs.existsSync(missing)).toBe(false);
    expect(fs.readFileSync(a).equals(beforeA)).toBe(true);
    expect(fs.readFileSync(b, 'utf8')).toBe(FILE_B.replace('current-context: work', 'current-context: home'));
    if (KUBECTL) expect(await kubectlCurrent(e)).toBe('home');
  });

  it('quotes a name YAML 1.1 (kubectl) would read as something else than a string', async () => {
    write(
      a,
      fileA('home').replace(
        '  - name: home\n    context',
        '  - name: "on"\n    context: {cluster: home, user: me}\n  - name: home\n    context',
      ),
    );
    write(b, FILE_B);
    expect((await runCliOnce(['use-context', 'on'], env)).code).toBe(0);
    expect(fs.readFileSync(a, 'utf8')).toContain('current-context: "on"   # switched often');
    if (KUBECTL) expect(await kubectlCurrent(env)).toBe('on');
  });

  it('writes nothing when the context already is the current one, and says so like kubectl', async () => {
    write(a, fileA('home'));
    write(b, FILE_B);
    const past = new Date('2026-01-01T00:00:00Z');
    fs.utimesSync(a, past, past);
    const r = await runCliOnce(['use-context', 'home'], env);
    expect(r).toMatchObject({ code: 0, stdout: 'Switched to context "home".\n' });
    expect(fs.statSync(a).mtimeMs).toBe(past.getTime());
  });
});

describe('gpu-fleet use-context refuses and changes nothing', () => {
  const files = () => [fs.readFileSync(a), fs.readFileSync(b)];
  beforeEach(() => {
    write(a, fileA('home'));
    write(b, FILE_B);
  });

  it('when the context does not exist', async () => {
    const before = files();
    const r = await runCliOnce(['use-context', 'nope'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: There is no context named "nope" in the kubeconfig (${a}, ${b}).\n`);
    expect(files()).toEqual(before);
  });

  it('when the file to write is read-only', async () => {
    fs.chmodSync(a, 0o400);
    const before = files();
    const r = await runCliOnce(['use-context', 'work'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${a} is read-only (mode 400); GPU Fleet did not change it.\n`);
    expect(files()).toEqual(before);
  });

  it('when the file to write is not valid YAML', async () => {
    write(a, 'apiVersion: v1\ncontexts: [\n');
    const before = files();
    const r = await runCliOnce(['use-context', 'work'], env);
    expect(r.code).toBe(1);
    // The worded sentence, then the loader's own saying what is wrong.
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: ${a} is not a valid kubeconfig; nothing was changed\\. \\(${a} is not valid YAML: .*\\)\\n$`,
      ),
    );
    expect(files()).toEqual(before);
  });

  it('when kubectl holds its lock on the file', async () => {
    fs.writeFileSync(`${a}.lock`, '');
    const before = files();
    const r = await runCliOnce(['use-context', 'work'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${a}.lock exists: kubectl or another tool is changing the kubeconfig`);
    expect(files()).toEqual(before);
    expect(fs.existsSync(`${a}.lock`)).toBe(true);
  });

  it('on a hostile name: control characters never reach the terminal', async () => {
    const r = await runCliOnce(['use-context', 'home\u001b]0;owned\u0007'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: A context name cannot contain control characters.\n');
    const usage = await runCliOnce(['use-context'], env);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('use-context needs a context name');
  });
});

describe('gpu-fleet use-context --kubeconfig through a symlink', () => {
  it('replaces the target, keeps the link a link and the mode as it was', async () => {
    const real = path.join(dir, 'real', 'config');
    fs.mkdirSync(path.dirname(real));
    write(real, FILE_B, 0o664); // group-writable: a umask would narrow it
    const link = path.join(dir, 'config-link');
    fs.symlinkSync(real, link);
    const before = fs.readFileSync(real, 'utf8');
    const r = await runCliOnce(
      ['use-context', 'arn:aws:eks:eu-west-1:123456789012:cluster/gpu', '--kubeconfig', link],
      env,
    );
    expect(r.code).toBe(0);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(link)).toBe(real);
    expect(fs.statSync(real).mode & 0o777).toBe(0o664);
    expect(changedLines(before, fs.readFileSync(real, 'utf8'))).toEqual([
      [3, 'current-context: work', 'current-context: arn:aws:eks:eu-west-1:123456789012:cluster/gpu'],
    ]);
    expect(fs.readdirSync(path.dirname(real))).toEqual(['config']);
    expect(ourCurrent({}, link)).toBe('arn:aws:eks:eu-west-1:123456789012:cluster/gpu');
    if (KUBECTL)
      expect(await kubectlCurrent({ KUBECONFIG: link })).toBe(
        'arn:aws:eks:eu-west-1:123456789012:cluster/gpu',
      );
  });
});
