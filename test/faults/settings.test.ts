/**
 * Fault matrix, a corrupt settings file: moved aside (never silently discarded) with a notice that says
 * where it went, defaults in use, and monitoring starts as if nothing happened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSim } from '../../sim/index.ts';
import { startApp } from './app.ts';
import { tempDir } from './kubeconfig.ts';
import { useCleanups } from './scope.ts';

const cleanup = useCleanups();

const CORRUPT = [
  {
    what: 'garbage bytes',
    text: '\u0000\u00ff{{{ not json',
    kind: 'corrupt',
    words:
      /^Your settings file was unreadable; it was moved to settings\.corrupt-.*\.json and defaults are in use\.$/,
  },
  {
    what: 'JSON of the wrong shape',
    text: '{"version":2,"contexts":"all"}',
    kind: 'corrupt',
    words: /^Your settings file was not valid \(.*\); it was moved to settings\.corrupt-/,
  },
  {
    what: 'a newer version',
    text: '{"version":99}',
    kind: 'newer',
    words: /moved to settings\.newer-.*\.json and defaults are in use/,
  },
];

describe('a corrupt settings file', () => {
  it.each(CORRUPT)('$what: moved aside with a notice; defaults in use; monitoring starts', async (c) => {
    const s = await startSim({ scenario: 'homelab' });
    cleanup(() => s.close());
    const dir = tempDir();
    const file = path.join(dir, 'config');
    await s.writeKubeconfig(file);
    const settingsDir = path.join(dir, 'settings');
    fs.mkdirSync(settingsDir);
    fs.writeFileSync(path.join(settingsDir, 'settings.json'), c.text);
    const a = startApp({ explicitPath: file }, settingsDir);
    cleanup(() => a.stop());
    const notice = a.core.settings.notices[0];
    expect(notice?.kind).toBe(c.kind);
    expect(notice?.message).toMatch(c.words);
    expect(fs.readFileSync(notice?.file ?? '', 'utf8')).toBe(c.text);
    expect(a.core.info().notices).toContain(notice?.message);
    expect((await a.run.live()).total_gpu_nodes).toBe(4);
  });
});
