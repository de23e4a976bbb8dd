/**
 * "Did you mean": the known names close to a mistyped one, as kubectl (cobra) offers them: an edit
 * distance of at most 2, or a name that starts with what was typed. Pure.
 */
import leven from 'leven';

/** At most this many edits away (cobra's SuggestionsMinimumDistance). */
const MAX_DISTANCE = 2;

export function suggestions(typed: string, known: Iterable<string>): string[] {
  const lower = typed.toLowerCase();
  if (lower === '') return [];
  const near: { name: string; d: number }[] = [];
  for (const name of known) {
    const d = leven(lower, name.toLowerCase());
    if (d <= MAX_DISTANCE || name.startsWith(lower)) near.push({ name, d });
  }
  return near.sort((a, b) => a.d - b.d || a.name.localeCompare(b.name)).map((n) => n.name);
}

/** The lines kubectl prints under an unknown name ("\nDid you mean this?\n\tscan\n"), or "". */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const near = suggestions(typed, known);
  return near.length === 0 ? '' : `\nDid you mean this?\n${near.map((n) => `\t${n}\n`).join('')}\n`;
}
