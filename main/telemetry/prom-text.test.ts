import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LABELS, PromParseError, parsePromText } from './prom-text.ts';

const name = fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,30}$/);
const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/);
const labelValue = fc.string({ maxLength: 40 });
const value = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const sample = fc.record({
  name,
  labels: fc.uniqueArray(fc.tuple(labelName, labelValue), { maxLength: 8, selector: ([k]) => k }),
  value,
});

const esc = (v: string) => v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
const render = (s: { name: string; labels: [string, string][]; value: number }) =>
  `${s.name}${s.labels.length ? `{${s.labels.map(([k, v]) => `${k}="${esc(v)}"`).join(',')}}` : ''} ${String(s.value)}`;

describe('Prometheus text parser', () => {
  it('reads back every sample it is given, with HELP/TYPE comments and blank lines around', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 20 }), (samples) => {
        const text = samples
          .flatMap((s) => [`# HELP ${s.name} help`, `# TYPE ${s.name} gauge`, render(s), ''])
          .join('\n');
        const out = parsePromText(text);
        expect(out.map((s) => [s.name, Object.entries(s.labels), s.value])).toEqual(
          samples.map((s) => [s.name, s.labels, Number(String(s.value))]),
        );
      }),
    );
  });

  it('fails the whole answer on any line that is not a sample, a comment or blank', () => {
    const junk = fc.constantFrom(
      '<html>',
      'a{b="c"',
      'a{b="c"}1',
      'a{b=c} 1',
      'a 1 2 3',
      'a one',
      'a{b="\\x"} 1',
      '{a="b"} 1',
      'a{1="x"} 1',
    );
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 5 }), junk, fc.nat(5), (samples, bad, at) => {
        const lines = samples.map(render);
        lines.splice(Math.min(at, lines.length), 0, bad);
        expect(() => parsePromText(lines.join('\n'))).toThrow(PromParseError);
      }),
    );
  });

  it('reads the special values, a timestamp, CRLF, and label names from outside into a null-prototype record', () => {
    const [a, b, c, d] = parsePromText(
      'x +Inf\r\ny -Inf 1700000000000\nz NaN\nw{constructor="1",__proto__="2"} 3\n',
    );
    expect(a?.value).toBe(Number.POSITIVE_INFINITY);
    expect(b?.value).toBe(Number.NEGATIVE_INFINITY);
    expect(c?.value).toBeNaN();
    expect(Object.getPrototypeOf(d?.labels)).toBeNull();
    expect(Object.entries(d?.labels ?? {})).toEqual([
      ['constructor', '1'],
      ['__proto__', '2'],
    ]);
  });

  it('refuses a sample with too many labels, or the same label twice', () => {
    const many = Array.from({ length: MAX_LABELS + 1 }, (_, i) => `l${i}="v"`).join(',');
    expect(() => parsePromText(`m{${many}} 1`)).toThrow(/too many labels/);
    expect(() => parsePromText('m{a="1",a="2"} 1')).toThrow(/label a twice/);
  });
});
