// metav1.MicroTime as kube-apiserver decodes it (transcript 11, steps 7–11): Go's time.Parse with the
// layout "2006-01-02T15:04:05.000000Z07:00", so exactly six fractional digits, then "Z" or ±hh:mm. The
// error texts are Go's own ParseError texts; a valid value is stored converted to UTC with a "Z".

export const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

type Step = { kind: 'lit'; text: string } | { kind: 'num'; std: string; width: number; fixed: boolean };

// The layout split the way Go's nextStdChunk does: each element preceded by its literal prefix.
const STEPS: Step[] = [
  { kind: 'num', std: '2006', width: 4, fixed: true },
  { kind: 'lit', text: '-' },
  { kind: 'num', std: '01', width: 2, fixed: true },
  { kind: 'lit', text: '-' },
  { kind: 'num', std: '02', width: 2, fixed: true },
  { kind: 'lit', text: 'T' },
  { kind: 'num', std: '15', width: 2, fixed: false },
  { kind: 'lit', text: ':' },
  { kind: 'num', std: '04', width: 2, fixed: true },
  { kind: 'lit', text: ':' },
  { kind: 'num', std: '05', width: 2, fixed: true },
];

const quote = (s: string) => JSON.stringify(s);

function parseError(value: string, elem: string, rest: string): string {
  return `parsing time ${quote(value)} as ${quote(MICRO_LAYOUT)}: cannot parse ${quote(rest)} as ${quote(elem)}`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s[0])) return undefined;
  if (!isDigit(s[1])) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** The stored form of a MicroTime, or the Go error text a real server answers. */
export function parseMicroTime(value: string): { ok: string } | { error: string } {
  let rest = value;
  const nums: number[] = [];
  // A literal that does not match is reported as itself, a number that does not parse as its element.
  for (const step of STEPS) {
    if (step.kind === 'lit') {
      if (!rest.startsWith(step.text)) return { error: parseError(value, step.text, rest) };
      rest = rest.slice(step.text.length);
      continue;
    }
    if (step.width === 4) {
      const digits = rest.slice(0, 4);
      if (digits.length < 4 || ![...digits].every(isDigit))
        return { error: parseError(value, step.std, rest) };
      nums.push(Number(digits));
      rest = rest.slice(4);
      continue;
    }
    const got = getnum(rest, step.fixed);
    if (!got) return { error: parseError(value, step.std, rest) };
    nums.push(got[0]);
    rest = got[1];
  }
  // ".000000": a dot (or comma) and exactly six digits.
  if (rest.length < 7 || !(rest[0] === '.' || rest[0] === ',') || ![...rest.slice(1, 7)].every(isDigit))
    return { error: parseError(value, '.000000', rest) };
  const micros = rest.slice(1, 7);
  rest = rest.slice(7);
  let offsetMin = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    const m = /^([+-])(\d\d):(\d\d)/.exec(rest);
    if (!m) return { error: parseError(value, 'Z07:00', rest) };
    offsetMin = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    rest = rest.slice(6);
  }
  if (rest !== '') return { error: `parsing time ${quote(value)}: extra text: ${quote(rest)}` };
  const [year, month, day, hour, minute, second] = nums as [number, number, number, number, number, number];
  const range = (what: string) => ({ error: `parsing time ${quote(value)}: ${what} out of range` });
  if (month < 1 || month > 12) return range('month');
  if (hour > 23) return range('hour');
  if (minute > 59) return range('minute');
  if (second > 59) return range('second');
  const daysIn = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysIn) return range('day');
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000;
  const iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
  return { ok: `${iso}.${micros}Z` };
}
