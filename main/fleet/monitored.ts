/** Pure: which contexts are monitored. Saved choices win; with none saved, the current context is. */
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';

export function monitoredContexts(
  saved: readonly string[],
  contexts: readonly ResolvedContext[],
  currentContext: string | null,
): ResolvedContext[] {
  if (saved.length > 0) {
    const wanted = new Set(saved);
    return contexts.filter((c) => wanted.has(c.name));
  }
  const current = contexts.find((c) => c.name === currentContext) ?? contexts[0];
  return current ? [current] : [];
}

/** Saved names that the kubeconfig no longer defines: the UI says so instead of dropping them. */
export function missingContexts(saved: readonly string[], contexts: readonly ResolvedContext[]): string[] {
  const known = new Set(contexts.map((c) => c.name));
  return saved.filter((name) => !known.has(name));
}
