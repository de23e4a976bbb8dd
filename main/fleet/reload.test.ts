import { describe, expect, it } from 'vitest';
import type { KubeconfigLoad, ResolvedContext } from '../kube/kubeconfig-types.ts';
import { mergeReload } from './reload.ts';

const ctx = (name: string, file: string): ResolvedContext => ({
  name,
  clusterName: name,
  userName: name,
  namespace: null,
  cluster: null,
  user: null,
  file,
});
const loaded = (
  contexts: ResolvedContext[],
  errors: string[] = [],
  current: string | null = null,
): KubeconfigLoad => ({
  kind: 'loaded',
  source: 'env',
  files: ['/a', '/b'],
  contexts,
  currentContext: current,
  warnings: [],
  errors: errors.map((file) => ({ file, message: `${file} is not valid YAML` })),
});

describe('mergeReload', () => {
  it('keeps the contexts of a file that failed to parse mid-save', () => {
    const prev = loaded([ctx('home', '/a'), ctx('work', '/b')], [], 'work');
    const next = loaded([ctx('home', '/a')], ['/b']);
    const merged = mergeReload(prev, next);
    expect(merged.kind === 'loaded' && merged.contexts.map((c) => c.name)).toEqual(['home', 'work']);
    expect(merged.kind === 'loaded' && merged.currentContext).toBe('work');
    expect(merged.kind === 'loaded' && merged.errors).toHaveLength(1);
  });

  it('drops contexts removed from a file that parsed fine', () => {
    const prev = loaded([ctx('home', '/a'), ctx('work', '/b')]);
    const next = loaded([ctx('home', '/a')]);
    expect(mergeReload(prev, next)).toBe(next);
  });

  it('takes a good read as it is', () => {
    const next = loaded([ctx('home', '/a')]);
    expect(mergeReload({ kind: 'none', source: 'default', searched: [], message: 'none' }, next)).toBe(next);
  });
});
