/** Process entry of the CLI: wires real streams, Ctrl-C and the exit code. */
import { registerAllCommands } from './commands.ts';
import { runCli } from './main.ts';

const stopSignal = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

registerAllCommands();
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stopSignal,
});
