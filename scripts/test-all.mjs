// `npm test`: type checks, lint, the Vite builds, unit/integration tests and end-to-end tests. Two lanes
// run at the same time, each in order: the checks (types, lint), the renderer tests, then the end-to-end
// tests (once the builds are done), beside the builds then the node tests. The node tests mostly wait on
// loopback servers and child processes, so the other lane's CPU work fills those waits. A step's output is
// printed whole when it ends, so the lanes do not interleave. Every step runs even when an earlier one
// failed, so one run shows every problem; the last line is `N passed, N failed` over all of them (each
// check counts as one), and the exit status is non-zero when anything failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { plainEnv } from './plain-env.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const results = [];

function step(name, command, args) {
  const started = Date.now();
  const line = `── ${name}: ${[command, ...args].join(' ')}`;
  process.stdout.write(`\n${line} (started)\n`);
  return new Promise((resolve) => {
    const out = [];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv(process.env) });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    const done = (ok) => {
      const seconds = (Date.now() - started) / 1000;
      results.push({ name, ok, seconds });
      process.stdout.write(`\n${line}\n${Buffer.concat(out).toString('utf8')}`);
      process.stdout.write(`── ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s\n`);
      resolve(ok);
    };
    child.on('error', (e) => {
      out.push(Buffer.from(`${e.message}\n`));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

async function vitest(name, project, extra = []) {
  mkdirSync('.tmp', { recursive: true });
  const out = `.tmp/vitest-${project}.json`;
  rmSync(out, { force: true });
  const ok = await step(name, bin('vitest'), [
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

const startedAll = Date.now();
let buildsDone = () => {};
const built = new Promise((resolve) => {
  buildsDone = resolve;
});
const [checkLane, buildLane] = await Promise.all([
  (async () => {
    await step('types: main, common, sim, tests', bin('tsc'), ['-p', 'tsconfig.json']);
    await step('types: preload', bin('tsc'), ['-p', 'preload/tsconfig.json']);
    await step('types: renderer (svelte-check)', bin('svelte-check'), [
      '--tsconfig',
      'renderer/tsconfig.json',
      '--threshold',
      'error',
      '--output',
      'human',
    ]);
    await step('lint and format (biome)', bin('biome'), ['check', '.']);
    const renderer = await vitest('tests: renderer', 'renderer');
    // Chromium against the built renderer and CLI, beside the node tests: after them, in their lane, it
    // made that lane 312 s of a 313 s fresh-clone run while this one idled after ~115 s (2026-12-07).
    await built;
    return [renderer, await vitest('tests: end-to-end (chromium)', 'e2e')];
  })(),
  (async () => {
    await step('build: main, preload, renderer', process.execPath, ['scripts/forge-vite-build.mjs']);
    // The tests that spawn `gpu-fleet` as a user runs it need the built command line (dist/cli/).
    await step('build: command line', process.execPath, ['scripts/cli-build.mjs']);
    buildsDone();
    return [await vitest('tests: node', 'node')];
  })(),
]);
const suites = [...checkLane, ...buildLane];

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
process.stdout.write(`all steps in ${((Date.now() - startedAll) / 1000).toFixed(1)} s (two lanes at once)\n`);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
