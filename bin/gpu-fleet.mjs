#!/usr/bin/env node
// The `gpu-fleet` command: plain JavaScript built from main/cli/ by `npm run build:cli` (vite.cli.config.ts
// → dist/cli/), which `npm ci` runs through the `prepare` script. No TypeScript loader at run time. A
// checkout that was never built (installed with --ignore-scripts) is built once, here, when Vite exists.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/entry.js', import.meta.url);
if (!existsSync(entry)) {
  const { buildCli } = await import('../scripts/cli-build.mjs');
  process.stderr.write('gpu-fleet: building the command line (first run)…\n');
  const problem = buildCli({ quiet: true });
  if (problem !== null) {
    process.stderr.write(`error: gpu-fleet is not built and ${problem}; run \`npm run build:cli\`.\n`);
    process.exit(1);
  }
}
await import(entry.href);
