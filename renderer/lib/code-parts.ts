/**
 * A translated sentence cut at the literal names it contains (commands, file names, env variables), so
 * the window can set those in <code> wherever the language put them. Pure.
 */
export interface TextPart {
  text: string;
  code: boolean;
}

export function codeParts(sentence: string, codes: readonly string[]): TextPart[] {
  const wanted = codes.filter((c) => c !== '');
  const parts: TextPart[] = [];
  let rest = sentence;
  while (rest !== '') {
    let at = -1;
    let hit = '';
    for (const c of wanted) {
      const i = rest.indexOf(c);
      if (i >= 0 && (at < 0 || i < at || (i === at && c.length > hit.length))) {
        at = i;
        hit = c;
      }
    }
    if (at < 0) {
      parts.push({ text: rest, code: false });
      break;
    }
    if (at > 0) parts.push({ text: rest.slice(0, at), code: false });
    parts.push({ text: hit, code: true });
    rest = rest.slice(at + hit.length);
  }
  return parts;
}
