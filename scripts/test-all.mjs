// `npm test`: type checks, lint, the Vite builds, unit/integration tests and end-to-end tests, in that
// order. Every step runs even when an earlier one failed, so one run shows every problem; the last line
// is `N passed, N failed` over all of them (each check counts as one), and the exit status is non-zero
// when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { plainEnv } from './plain-env.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const results = [];

function step(name, command, args) {
  const started = Date.now();
  process.stdout.write(`\n── ${name}: ${[command, ...args].join(' ')}\n`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: plainEnv(process.env) });
  const ok = r.status === 0;
  results.push({ name, ok, seconds: (Date.now() - started) / 1000 });
  return ok;
}

function vitest(name, project, extra = []) {
  mkdirSync('.tmp', { recursive: true });
  const out = `.tmp/vitest-${project}.json`;
  rmSync(out, { force: true });
  const ok = step(name, bin('vitest'), [
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...extra,
  ]);
  if (!existsSync(out)) return { passed: 0, failed: 1, skipped: 0, ok: false };
  const report = JSON.parse(readFileSync(out, 'utf8'));
  // A suite that failed to load counts as a failure even though it ran no test.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  ).length;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles + (ok || report.numFailedTests > 0 ? 0 : 1),
    skipped: report.numPendingTests + report.numTodoTests,
    ok,
  };
}

step('types: main, common, sim, tests', bin('tsc'), ['-p', 'tsconfig.json']);
step('types: preload', bin('tsc'), ['-p', 'preload/tsconfig.json']);
step('types: renderer (svelte-check)', bin('svelte-check'), [
  '--tsconfig',
  'renderer/tsconfig.json',
  '--threshold',
  'error',
  '--output',
  'human',
]);
step('lint and format (biome)', bin('biome'), ['check', '.']);
step('build: main, preload, renderer', process.execPath, ['scripts/forge-vite-build.mjs']);
// The tests that spawn `gpu-fleet` as a user runs it need the built command line (dist/cli/).
step('build: command line', process.execPath, ['scripts/cli-build.mjs']);

const suites = [
  vitest('tests: node', 'node'),
  vitest('tests: renderer', 'renderer'),
  vitest('tests: end-to-end (chromium)', 'e2e'),
];

const checks = results.filter((r) => !r.name.startsWith('tests:'));
let passed = checks.filter((r) => r.ok).length;
let failed = checks.length - passed;
let skipped = 0;
for (const s of suites) {
  passed += s.passed;
  failed += s.failed;
  skipped += s.skipped;
}
process.stdout.write('\n── summary\n');
for (const r of results)
  process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.seconds.toFixed(1)} s)\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
