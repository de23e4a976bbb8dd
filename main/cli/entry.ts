/** Process entry of the CLI: wires real streams, Ctrl-C and the exit code. */
import { registerAllCommands } from './commands.ts';
import { runCli } from './main.ts';

/** How long a command may take to close after Ctrl-C before the process exits anyway. */
const CLOSE_GRACE_MS = 10_000;

// The first SIGINT/SIGTERM stops the command, which closes and returns its exit code. Later signals are
// ignored: conf's atomic-write dependency (when-exit) re-raises the signal once it has run its hooks,
// which used to kill `serve` with 143 before it could close. A close that hangs ends after the grace.
let stopping = false;
const stopSignal = new Promise<void>((resolve) => {
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    resolve();
    setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), CLOSE_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
});

registerAllCommands();
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stopSignal,
});
