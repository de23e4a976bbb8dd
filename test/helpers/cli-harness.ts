/** Runs `gpu-fleet` commands in-process with captured output and a stop button, for CLI tests. */
import { PassThrough } from 'node:stream';
import { registerAllCommands } from '../../main/cli/commands.ts';
import { runCli } from '../../main/cli/main.ts';

export interface CliRun {
  stdout(): string;
  stderr(): string;
  /** Lines of stdout so far. */
  lines(): string[];
  stop(): void;
  exit: Promise<number>;
}

export function startCli(argv: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  registerAllCommands();
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  err.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  let stop: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const exit = runCli(argv, { stdout: out, stderr: err, env: { HOME: '/nonexistent', ...env }, stopSignal });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    lines: () => stdout.split('\n').filter((l) => l !== ''),
    stop,
    exit,
  };
}

export async function runCliOnce(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const run = startCli(argv, env);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
