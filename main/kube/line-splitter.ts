/**
 * Splits a byte stream into lines (watch events are one JSON object per line) without copying the whole
 * stream: only the unfinished tail is kept. A line longer than maxLineBytes is a protocol error, so a
 * server that never sends a newline cannot grow memory without bound.
 */

export class LineSplitter {
  #parts: Buffer[] = [];
  #size = 0;

  constructor(private readonly maxLineBytes = 32 << 20) {}

  /** Returns the complete lines in this chunk (without the newline); throws when a line is too long. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      const line = this.#parts.length === 0 ? piece : Buffer.concat([...this.#parts, piece]);
      this.#parts = [];
      this.#size = 0;
      const text = line.toString('utf8').trim();
      if (text !== '') lines.push(text);
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.#size += chunk.length - start;
      if (this.#size > this.maxLineBytes) throw new Error(`a line longer than ${this.maxLineBytes} bytes`);
      this.#parts.push(chunk.subarray(start));
    }
    return lines;
  }

  /** Bytes of an unfinished line (a stream cut off mid-event leaves some). */
  get pendingBytes(): number {
    return this.#size;
  }
}
