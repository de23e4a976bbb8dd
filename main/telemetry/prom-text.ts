/**
 * A small, strict reader of the Prometheus text exposition format (version 0.0.4), for what a DCGM
 * exporter prints. Written here rather than taken from npm: the one parser there
 * (parse-prometheus-text-format 1.1.1) has had no release since 2019, ships no types and has no limits.
 * Strict: a line that is not a comment, a blank or a well-formed sample fails the whole answer with its
 * line number (a proxy error page or a truncated body must not become half a reading). Bounded: at most
 * MAX_SAMPLES samples, MAX_LABELS labels each, names and values of bounded length.
 */

export interface Sample {
  name: string;
  /** Null-prototype: label names come from outside. */
  labels: Record<string, string>;
  value: number;
}

export class PromParseError extends Error {}

export const MAX_SAMPLES = 50_000;
export const MAX_LABELS = 32;
const MAX_NAME = 200;
const MAX_LABEL_VALUE = 1024;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(s: string, line: number): number {
  if (s === '+Inf' || s === 'Inf') return Number.POSITIVE_INFINITY;
  if (s === '-Inf') return Number.NEGATIVE_INFINITY;
  if (s === 'NaN') return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new PromParseError(`line ${line}: bad value`);
  return Number(s);
}

/** Reads `{a="x",b="y"}` from the start of `s`; returns the labels and where it ended. */
function parseLabels(s: string, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = Object.create(null);
  let i = 1;
  let count = 0;
  const fail = (why: string): never => {
    throw new PromParseError(`line ${line}: ${why}`);
  };
  for (;;) {
    while (s[i] === ' ') i++;
    if (s[i] === '}') return { labels, end: i + 1 };
    const m = LABEL_NAME.exec(s.slice(i, i + MAX_NAME + 1));
    if (!m || m[0].length > MAX_NAME) fail('bad label name');
    const name = (m as RegExpExecArray)[0];
    i += name.length;
    while (s[i] === ' ') i++;
    if (s[i] !== '=') fail('expected = after a label name');
    i++;
    while (s[i] === ' ') i++;
    if (s[i] !== '"') fail('expected a quoted label value');
    i++;
    let value = '';
    for (;;) {
      const c = s[i];
      if (c === undefined) fail('unterminated label value');
      if (c === '"') break;
      if (c === '\\') {
        const n = s[i + 1];
        if (n === 'n') value += '\n';
        else if (n === '\\' || n === '"') value += n;
        else fail('bad escape in a label value');
        i += 2;
      } else {
        value += c;
        i++;
      }
      if (value.length > MAX_LABEL_VALUE) fail('label value too long');
    }
    i++;
    if (Object.hasOwn(labels, name)) fail(`label ${name} twice`);
    if (++count > MAX_LABELS) fail('too many labels');
    labels[name] = value;
    while (s[i] === ' ') i++;
    if (s[i] === ',') i++;
    else if (s[i] !== '}') fail('expected , or } after a label');
  }
}

export function parsePromText(text: string): Sample[] {
  const out: Sample[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n] as string;
    const lineNo = n + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = NAME.exec(line);
    if (!m || m[0].length > MAX_NAME) throw new PromParseError(`line ${lineNo}: bad metric name`);
    const name = m[0];
    let rest = line.slice(name.length);
    let labels: Record<string, string> = Object.create(null);
    if (rest.startsWith('{')) {
      const l = parseLabels(rest, lineNo);
      labels = l.labels;
      rest = rest.slice(l.end);
    }
    if (!/^[ \t]/.test(rest)) throw new PromParseError(`line ${lineNo}: expected a value`);
    const fields = rest.trim().split(/[ \t]+/);
    if (fields.length > 2) throw new PromParseError(`line ${lineNo}: too many fields`);
    if (fields.length === 2 && !/^-?\d+$/.test(fields[1] as string))
      throw new PromParseError(`line ${lineNo}: bad timestamp`);
    out.push({ name, labels, value: parseValue(fields[0] as string, lineNo) });
    if (out.length > MAX_SAMPLES) throw new PromParseError(`more than ${MAX_SAMPLES} samples`);
  }
  return out;
}
