// Mutation testing of the critical guards only (`npm run mutate`, never part of `npm test`; results in
// docs/mutation.md). The guards are named by file and function, not by line numbers: the ranges are
// found in the current source with the TypeScript parser, so edits elsewhere in a file never move the
// target, and a renamed or removed function stops the run with its name instead of mutating nothing.
import fs from 'node:fs';
import ts from 'typescript';

/** Each guard: the file, and the functions in it (`name`, `Class.method`, `Class.#private`, `Class.constructor`). */
const GUARDS = {
  // Stale inventories are never written (ContextWriteback.update), and the hub passes `stale` through.
  'main/writeback/index.ts': ['ContextWriteback.update'],
  'main/writeback/hub.ts': ['WritebackHub.constructor', 'WritebackHub.set'],
  // No-op skip: an inventory equal to what the cluster holds is never re-applied.
  'main/writeback/apply-loop.ts': ['ApplyLoop.want', 'ApplyLoop.#schedule', 'ApplyLoop.#run'],
  // The comparator that decides "same status, skip the write" (statusOf only reads the cluster's object).
  'main/writeback/status-writer.ts': ['statusesEqual'],
  'main/writeback/configmap-writer.ts': ['ownedDataKeys', 'ownedData', 'dataEqual'],
  'main/inventory/aggregate.ts': ['inventoriesEqual'],
  // IPC: only our window's webContents, and only its top frame showing our origin, may invoke.
  'main/electron/ipc.ts': ['setupIpc'],
  'main/electron/app-origin.ts': ['isOurFrame'],
  // Leader election: when a lease is still valid, and whether to acquire, renew or wait.
  'main/controller/leader-decision.ts': ['leaseValid', 'decide'],
  // Forget on delete: a deleted or relisted-away node's "last seen" labels go.
  'main/inventory/last-seen.ts': ['forgetLabels', 'retainLabels'],
  'main/fleet/context-monitor.ts': ['ContextMonitor.#onWatcher'],
  // The 410 policy of the watcher (relist, count across opens, back off, never throw out of the loop).
  'main/kube/watch-error-policy.ts': [
    'WatchErrorPolicy.progress',
    'WatchErrorPolicy.decide',
    'WatchErrorPolicy.#expired',
  ],
  'main/kube/list-watcher.ts': ['ListWatcher.#run', 'ListWatcher.#loop', 'ListWatcher.#failed'],
};

function memberName(node, sf) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return node.name ? node.name.getText(sf) : null;
}

/** The `file:line:col-line:col` range of one function, as Stryker's `mutate` expects (1-based lines). */
function rangeOf(file, qualified) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const [outer, inner] = qualified.includes('.') ? qualified.split('.', 2) : [qualified, null];
  let found = null;
  for (const st of sf.statements) {
    if (inner === null && ts.isFunctionDeclaration(st) && st.name?.text === outer) found = st;
    if (inner === null && ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (d.name.getText(sf) === outer) found = st;
    }
    if (inner !== null && ts.isClassDeclaration(st) && st.name?.text === outer) {
      found = st.members.find((m) => memberName(m, sf) === inner) ?? null;
    }
    if (found) break;
  }
  if (!found) throw new Error(`stryker.config.mjs: ${qualified} is not in ${file}; update GUARDS.`);
  const start = sf.getLineAndCharacterOfPosition(found.getStart(sf));
  const end = sf.getLineAndCharacterOfPosition(found.getEnd());
  return `${file}:${start.line + 1}:${start.character}-${end.line + 1}:${end.character}`;
}

const mutate = Object.entries(GUARDS).flatMap(([file, names]) => names.map((n) => rangeOf(file, n)));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The node project only, and only the test files that import a mutated file.
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate,
  concurrency: 2,
  // Tests against the sim wait for real sockets; a mutant that hangs a loop is a timeout (killed).
  timeoutMS: 15_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: '.tmp/mutation/mutation.json' },
  htmlReporter: { fileName: '.tmp/mutation/mutation.html' },
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
  ignorePatterns: ['.vite', 'out', 'coverage', 'bench/results', 'docs', '.tmp'],
  thresholds: { high: 90, low: 75, break: null },
};
