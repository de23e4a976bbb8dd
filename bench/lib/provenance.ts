/**
 * Which code a bench run measured: the commit and whether the tree had uncommitted changes, and later
 * whether main/ or common/ (the code the figures describe) changed after that commit. Read with git; a
 * tree without git (an unpacked tarball) records null, shown as "commit not recorded".
 */
import { spawnSync } from 'node:child_process';

/** The folders whose changes can move a figure. */
export const MEASURED_CODE = ['main', 'common'] as const;

export interface Provenance {
  commit: string | null;
  dirty: boolean | null;
}

function git(root: string, args: readonly string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}

export function provenance(root: string): Provenance {
  const head = git(root, ['rev-parse', 'HEAD']);
  if (!head.ok || !/^[0-9a-f]{40}$/.test(head.out)) return { commit: null, dirty: null };
  const status = git(root, ['status', '--porcelain', '--', ...MEASURED_CODE]);
  return { commit: head.out, dirty: status.ok ? status.out !== '' : null };
}

/** How a run's figures stand against the code now. */
export type Freshness = 'current' | 'changed-since' | 'not-recorded';

/** 'changed-since' when main/ or common/ differ between the run's commit and HEAD, or the run was dirty. */
export function freshnessAt(root: string): (run: Provenance) => Freshness {
  return (run) => {
    if (run.commit === null || run.dirty === null) return 'not-recorded';
    if (run.dirty) return 'changed-since';
    const diff = spawnSync('git', ['diff', '--quiet', run.commit, 'HEAD', '--', ...MEASURED_CODE], {
      cwd: root,
      stdio: 'ignore',
    });
    // 1: differs; anything else (an unknown commit in a shallow clone) cannot say.
    if (diff.status === 0) return 'current';
    return diff.status === 1 ? 'changed-since' : 'not-recorded';
  };
}
