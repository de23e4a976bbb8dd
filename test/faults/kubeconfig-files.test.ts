/**
 * Fault matrix, the user's kubeconfig: malformed files, duplicate names across KUBECONFIG files, a file
 * edited while running. The CLI says what is wrong and exits non-zero; the app shows a notice and keeps
 * monitoring whatever it still can.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSim } from '../../sim/index.ts';
import { startSim } from '../../sim/index.ts';
import { runCliOnce } from '../helpers/cli-harness.ts';
import { type App, startApp } from './app.ts';
import { allReady, expectCalm, sameInventory } from './harness.ts';
import { tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

async function sim(scenario = 'homelab'): Promise<RunningSim> {
  const s = await startSim({ scenario });
  cleanup(() => s.close());
  return s;
}

function app(kubeconfig: string, settingsDir: string): App {
  const a = startApp({ explicitPath: kubeconfig }, settingsDir);
  cleanup(() => a.stop());
  return a;
}

const write = (file: string, text: string) => fs.writeFileSync(file, text, { mode: 0o600 });

const MALFORMED = [
  {
    what: 'not YAML',
    text: 'apiVersion: v1\nclusters: [\n  - name: c\n',
    words: /is not valid YAML: .*line 3/,
  },
  {
    what: 'not a mapping',
    text: 'just a string\n',
    words: /is not a kubeconfig \(expected a mapping at the top\)/,
  },
];

describe('a malformed kubeconfig', () => {
  it.each(MALFORMED)(
    '$what: the CLI names the file and the problem, exits 1, prints no inventory',
    async (m) => {
      const file = path.join(tempDir(), 'config');
      write(file, m.text);
      const { code, stdout, stderr } = await runCliOnce(['scan', '--kubeconfig', file]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(file);
      expect(stderr).toMatch(m.words);
      // One clear sentence: the file's problem, not a vague "defines no contexts" after it.
      expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: .* is not/)]);
    },
  );

  it.each(MALFORMED)('$what: the app shows it as a notice and monitors nothing', async (m) => {
    const dir = tempDir();
    const file = path.join(dir, 'config');
    write(file, m.text);
    const a = app(file, path.join(dir, 'settings'));
    expect(a.core.notices().some((n) => n.includes(file) && m.words.test(n))).toBe(true);
    expect(a.core.engine.snapshot().contexts).toEqual([]);
  });

  it('a context naming a cluster no file defines: config-error in words, never a crash', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config');
    write(
      file,
      'contexts:\n- name: x\n  context: {cluster: gone, user: u}\nusers:\n- name: u\n  user: {token: t}\ncurrent-context: x\n',
    );
    const a = app(file, path.join(dir, 'settings'));
    await a.run.waitForPhase('config-error');
    expect(a.run.ctx().connection.message).toBe(
      'Context "x" names cluster "gone", which no kubeconfig file defines.',
    );
    await expectCalm(a.run, null);
  });
});

describe('duplicate names across KUBECONFIG files', () => {
  it('the first file wins: the CLI warns about each clashing entry and scans the first cluster', async () => {
    const [first, second] = [await sim('homelab'), await sim('large:12')];
    const dir = tempDir();
    const [a, b] = [path.join(dir, 'a.yaml'), path.join(dir, 'b.yaml')];
    await first.writeKubeconfig(a);
    await second.writeKubeconfig(b);
    const { code, stdout, stderr } = await runCliOnce(['scan', '-o', 'json'], { KUBECONFIG: `${a}:${b}` });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).total_gpu_nodes).toBe(4);
    expect(stderr).toContain(
      `warning: The cluster "gpu-fleet-sim" in ${b} is ignored: ${a} defines one with the same name first (rename one of them).`,
    );
    expect(
      stderr
        .trimEnd()
        .split('\n')
        .every((l) => l.startsWith('warning: ')),
    ).toBe(true);
  });
});

describe('the kubeconfig edited while running', () => {
  async function running() {
    const s = await sim();
    allReady(s);
    const dir = tempDir();
    const file = path.join(dir, 'config');
    await s.writeKubeconfig(file);
    const a = app(file, path.join(dir, 'settings'));
    const before = await a.run.live();
    return { s, file, a, before };
  }

  it('saved half-way (broken YAML): monitoring goes on, the notice names the file, then clears', async () => {
    const { s, file, a, before } = await running();
    write(file, 'apiVersion: v1\nclusters: [\n');
    await a.run.waitFor(() => a.core.notices().some((n) => n.includes('is not valid YAML')), 'the notice');
    expect(a.run.ctx().connection.phase).toBe('live');
    sameInventory(a.run.ctx().inventory, before);
    await s.writeKubeconfig(file);
    await a.run.waitFor(() => a.core.notices().length === 0, 'the notice to clear');
    expect(a.run.alerts).toEqual([]);
  });

  it('new credentials for the same cluster: the context reconnects with them, nothing lost, no alert', async () => {
    const { s, file, a, before } = await running();
    write(file, fs.readFileSync(file, 'utf8').replaceAll(s.tokens.admin, s.tokens.revocable));
    await a.run.waitFor(
      () => a.run.states().filter((st) => st.phase === 'live').length >= 2,
      'the reconnect',
    );
    sameInventory(await a.run.live(), before);
    s.control.revokeToken('revocable');
    await s.control.restart();
    await a.run.waitForPhase('unauthorized');
    await expectCalm(a.run, before);
  });
});
