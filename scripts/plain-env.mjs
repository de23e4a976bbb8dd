// The environment `npm test` runs its steps in: no colour codes in the output. FORCE_COLOR=0 does not do
// that: tinyrainbow (vitest) and picocolors (biome's wrapper, svelte-check) switch colour ON when
// FORCE_COLOR is set at all, whatever its value; NO_COLOR is what they all honour. Pure.
export function plainEnv(env) {
  const out = { ...env, NO_COLOR: '1' };
  delete out.FORCE_COLOR;
  return out;
}
