/**
 * The one check of refusal facts ("words") where they arrive from another process, shared by every
 * area's words (common/words.ts): a known code with exactly its values, each a short string or a finite
 * number. Sub-codes (fault, why, kind) are looked up in fixed tables where they are worded.
 */

/** The longest value words may carry (a path as the user would type it, a context name …). */
export const WORDS_VALUE_MAX = 300;

export function hasWordsShape(v: unknown, values: Readonly<Record<string, readonly string[]>>): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const code = o.code;
  if (typeof code !== 'string' || !Object.hasOwn(values, code)) return false;
  const names = values[code] ?? [];
  if (Object.keys(o).length !== names.length + 1) return false;
  return names.every((n) => {
    const x = Object.hasOwn(o, n) ? o[n] : undefined;
    return (
      (typeof x === 'string' && x.length <= WORDS_VALUE_MAX) || (typeof x === 'number' && Number.isFinite(x))
    );
  });
}
