/**
 * Pure: a kubeconfig reload that caught a file half-written by an editor (or otherwise unreadable for a
 * moment) keeps the contexts that file defined before, so healthy clusters are not dropped and
 * re-listed for a save in progress. The error is still shown; the next good read replaces them.
 */
import type { KubeconfigLoad } from '../kube/kubeconfig-types.ts';

export function mergeReload(prev: KubeconfigLoad, next: KubeconfigLoad): KubeconfigLoad {
  if (prev.kind !== 'loaded' || next.kind !== 'loaded' || next.errors.length === 0) return next;
  const broken = new Set(next.errors.map((e) => e.file));
  const present = new Set(next.contexts.map((c) => c.name));
  const kept = prev.contexts.filter((c) => broken.has(c.file) && !present.has(c.name));
  if (kept.length === 0) return next;
  const currentContext =
    next.currentContext ?? (kept.some((c) => c.name === prev.currentContext) ? prev.currentContext : null);
  return { ...next, contexts: [...next.contexts, ...kept], currentContext };
}
