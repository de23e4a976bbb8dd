/** What a CLI command may touch: its streams, environment and a way to learn it should stop. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks the command to stop (Ctrl-C), for long-running commands. */
  stopSignal: Promise<void>;
}

/** A failure the user can act on: printed as one sentence on stderr, exit status non-zero. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
