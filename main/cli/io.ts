import { SENTENCE_MAX } from '../../common/cluster-text.ts';
import { shownText } from '../log/redact.ts';

/** What a CLI command may touch: its streams, environment and a way to learn it should stop. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks the command to stop (Ctrl-C), for long-running commands. */
  stopSignal: Promise<void>;
}

/**
 * One line for a terminal: text that may quote a cluster, a kubeconfig or a plugin (names, messages)
 * redacted, without control characters, capped at SENTENCE_MAX, with its newline.
 */
export function terminalLine(text: string): string {
  return `${shownText(text, SENTENCE_MAX)}\n`;
}

/**
 * A failure the user can act on: printed as one sentence on stderr, exit status non-zero. The sentence
 * may quote outside text, so it passes the gate (one line); `hint`, our own words, goes on a second line.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly hint: string | null = null,
  ) {
    super(shownText(message, SENTENCE_MAX));
    this.name = 'CliError';
  }
}
