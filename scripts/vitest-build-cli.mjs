// Vitest globalSetup of the node project: tests that spawn bin/gpu-fleet.mjs (test/faults/*-cli.test.ts)
// run the built command line, so it is rebuilt first when a source is newer than the build: a test run
// never exercises yesterday's CLI.
import { buildCli, cliIsStale } from './cli-build.mjs';

export default function setup() {
  if (!cliIsStale()) return;
  const problem = buildCli({ quiet: true });
  if (problem !== null) throw new Error(`gpu-fleet: ${problem}.`);
}
