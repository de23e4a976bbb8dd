/** A log file capped in size: when it would pass `maxBytes` it becomes `name.1` (older ones shift up to `keep`). */
import fs from 'node:fs';
import path from 'node:path';
import type { LogSink } from './logger.ts';

export class RotatingFileSink implements LogSink {
  #size: number;

  constructor(
    readonly file: string,
    private readonly maxBytes = 1 << 20,
    private readonly keep = 3,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.#size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.#size + bytes > this.maxBytes && this.#size > 0) this.#rotate();
    fs.appendFileSync(this.file, line, { mode: 0o600 });
    this.#size += bytes;
  }

  #rotate(): void {
    for (let i = this.keep - 1; i >= 1; i--) {
      const from = `${this.file}.${i}`;
      if (fs.existsSync(from)) fs.renameSync(from, `${this.file}.${i + 1}`);
    }
    fs.renameSync(this.file, `${this.file}.1`);
    const extra = `${this.file}.${this.keep + 1}`;
    if (fs.existsSync(extra)) fs.rmSync(extra);
    this.#size = 0;
  }
}
