import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.ts';

describe('LineSplitter', () => {
  it.each([
    { chunks: ['{"a":1}\n{"b":2}\n'], lines: ['{"a":1}', '{"b":2}'], pending: 0 },
    { chunks: ['{"a"', ':1}\n{"b', '":2}\n'], lines: ['{"a":1}', '{"b":2}'], pending: 0 },
    { chunks: ['x\r\n\n\ny\n'], lines: ['x', 'y'], pending: 0 },
    { chunks: ['{"cut":'], lines: [], pending: 7 },
    { chunks: ['é'.slice(0, 1), '\n'], lines: ['é'], pending: 0 },
  ])('$chunks → $lines', ({ chunks, lines, pending }) => {
    const s = new LineSplitter();
    expect(chunks.flatMap((c) => s.push(Buffer.from(c)))).toEqual(lines);
    expect(s.pendingBytes).toBe(pending);
  });

  it('keeps a multi-byte character split across chunks intact', () => {
    const s = new LineSplitter();
    const bytes = Buffer.from('"ü"\n');
    expect([...s.push(bytes.subarray(0, 2)), ...s.push(bytes.subarray(2))]).toEqual(['"ü"']);
  });

  it('refuses a line longer than the limit', () => {
    const s = new LineSplitter(8);
    s.push(Buffer.from('12345'));
    expect(() => s.push(Buffer.from('67890'))).toThrow(/longer than 8 bytes/);
  });
});
