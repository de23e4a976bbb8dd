/**
 * What a built bundle loads before any of its lazy chunks: the files reached from one file by the
 * imports `next` names (static ones, for the question "what does this load at once"), the file itself
 * included. Shared by the built CLI's test and the desktop bundles' smoke test.
 */
export function closure(start: string, next: (file: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...next(file));
  }
  return seen;
}

/** The packages that make the simulator's TLS (sim/tls.ts): they belong to the simulator's chunk alone. */
export const SIM_TLS_PACKAGES = ['@peculiar/x509', 'reflect-metadata'] as const;
