/**
 * Structured, levelled logs: one JSON object per line (`at`, `level`, `component`, `msg`, fields).
 * Before anything is written, the message and every string field are redacted (log/redact.ts) and pass
 * the text gate: one line, no control characters, at most SENTENCE_MAX characters, whatever a cluster or
 * an exec plugin put into them. Sinks: a size-capped rotating file (desktop app) or stderr (the CLI's -v).
 */
import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import { redact, shownText } from './redact.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogSink {
  write(line: string): void;
}

export class Logger {
  constructor(
    private readonly sink: LogSink,
    private readonly level: LogLevel = 'info',
    private readonly component = 'app',
    private readonly now: () => number = Date.now,
  ) {}

  child(component: string): Logger {
    return new Logger(this.sink, this.level, component, this.now);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.#log('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.#log('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.#log('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.#log('error', msg, fields);
  }

  #log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    const entry = {
      at: new Date(this.now()).toISOString(),
      level,
      component: this.component,
      msg: shownText(msg, SENTENCE_MAX),
      ...(fields ? (redact(fields, SENTENCE_MAX) as object) : {}),
    };
    try {
      this.sink.write(`${JSON.stringify(entry)}\n`);
    } catch {
      // Logging must never take the app down (disk full, file removed); the next line tries again.
    }
  }
}
