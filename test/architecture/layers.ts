/**
 * The one-way import rule of the source tree, as data and one pure check over the import graph
 * (import-graph.ts). Each violation is one sentence naming the file, the import and the rule it breaks.
 *
 * main/ is layered; a file may import its own area and any area of a LOWER rank, never a sibling of the
 * same rank and never one above (rank: what it is for):
 *   0 common/                       shared types and pure helpers (also the renderer's)
 *   1 main/log, main/settings       redaction and logging; the settings file (its defaults come from common/)
 *   2 main/kube                     kubeconfig, client, list+watch+cache
 *   3 main/inventory, main/telemetry  GPU facts from nodes; DCGM exporter readings through pods/proxy
 *   4 main/alerts, main/writeback, main/diagnosis    pure alert policy; writing back; one node's detail
 *     main/timeline                 the timeline database (the engine host writes it, the CLI reads it)
 *   4.5 main/forward                alerts to ntfy and webhooks: messages, queues, delivery (uses alerts' words)
 *   5 main/fleet                    the engine and app core that wire them
 *   6 main/demo, main/web, main/controller   the demo choice (for the engine host and `gpu-fleet serve`);
 *                                   the HTTP bridge; the in-cluster controller (leader election, ops
 *                                   endpoints, manifests)
 *   7 main/cli, main/electron,      the processes, each folder holding only code that runs in it
 *     main/engine-host              (`gpu-fleet controller` runs main/controller; Electron's main process
 *                                   forks the engine host as a utility process, which builds the tray
 *                                   model in main/engine-host/tray/)
 *   8 main/index.ts                 the Electron entry
 * Beside the layers: renderer/ and preload/ import only common/ and themselves; sim/ imports only itself;
 * main/ reaches sim/ only from the CLI's `sim` command statically, and from the two shells that offer the
 * demo (main/engine-host/serve.ts for the desktop app, main/cli/commands/serve.ts) by `import()` or `import type`, so no bundle
 * links the simulator. Only main/electron/, main/index.ts and the preload script import 'electron'.
 * Packages and Node built-ins are allowed per area (EXTERNALS): the pure layers (inventory, alerts,
 * telemetry, diagnosis) import none, the renderer only svelte, and 'electron' only main/electron/,
 * main/index.ts and the preload (one rule for electron, bench/ included). Product code never loads a
 * module the graph cannot follow: no `require`, no `createRequire`, no `import()` of a computed name.
 * electron-store imports 'electron' itself, so it counts as an Electron import, with one deliberate exception:
 * the engine host's settings backend (main/engine-host/settings-backend.ts) runs only in the utility process,
 * where Electron answers 'electron' with its utility module, and only the host's entry may load it, so
 * neither the CLI, nor serve.ts, nor a test (where 'electron' would be the real package) reaches it.
 * Test files (*.test.ts, *.testkit.ts) may import anything and are not checked against the layers.
 */
import { cycles, type ImportEdge } from './import-graph.ts';

export const RANKS: ReadonlyMap<string, number> = new Map([
  ['common', 0],
  ['main/log', 1],
  ['main/settings', 1],
  ['main/kube', 2],
  ['main/inventory', 3],
  ['main/telemetry', 3],
  ['main/alerts', 4],
  ['main/writeback', 4],
  ['main/diagnosis', 4],
  ['main/timeline', 4],
  ['main/forward', 4.5],
  ['main/fleet', 5],
  ['main/demo', 6],
  ['main/web', 6],
  ['main/cli', 7],
  ['main/electron', 7],
  ['main/engine-host', 7],
  ['main/controller', 6],
  ['main/index.ts', 8],
]);

/**
 * What each area holds, in one line: the README's Layout is generated from these and RANKS (layout.ts),
 * and a test fails when a folder of main/ has no rank or no line here.
 */
export const PURPOSES: ReadonlyMap<string, string> = new Map([
  ['common', 'plain serializable types, the one typed IPC contract, i18n catalogs, the text gate'],
  ['main/log', 'JSON-line logger, redaction of credentials, size-capped rotating file'],
  ['main/settings', 'the settings store, migrations, corrupt-file recovery (its schema is in common/)'],
  ['main/kube', 'kubeconfig, per-context clients, generic list+watch+cache, backoff, clocks, API errors'],
  ['main/inventory', 'pure: is-GPU-node, node → entry, aggregate, last-seen labels, meaningful diff'],
  ['main/telemetry', "DCGM exporter readings through the API server's pods/proxy"],
  ['main/alerts', 'pure: rules, hold-down, recovery, unreachable, flapping, snooze'],
  ['main/writeback', 'GpuInventory CRD (generated from the same types) and status writer (SSA), ConfigMap'],
  ['main/diagnosis', "one node's detail: conditions, events, GPU pods, describe text"],
  [
    'main/timeline',
    'the timeline database (node:sqlite): episodes, events, telemetry; the engine host writes it',
  ],
  ['main/forward', 'alerts forwarded to ntfy, webhooks, Slack and Discord: messages, queues, delivery'],
  ['main/fleet', 'the engine: per-context supervisor, fleet snapshot, history, the contract handlers'],
  ['main/demo', 'the demo choice for the engine host and `gpu-fleet serve`: when, and throwaway settings'],
  ['main/web', 'loopback bridge for browser mode (token, Host/Origin checks, event stream)'],
  [
    'main/controller',
    'in-cluster controller: leader election on a Lease, /healthz /readyz /metrics, manifests',
  ],
  ['main/cli', 'the `gpu-fleet` command (built to dist/cli/; bin/gpu-fleet.mjs runs it)'],
  [
    'main/electron',
    "Electron's main process (only it imports 'electron'): tray, window, IPC, the engine-host client",
  ],
  ['main/engine-host', "the desktop app's engine process (an Electron utility process) and its tray model"],
  ['main/index.ts', 'Electron entry: lifecycle only'],
]);

/**
 * The packages and built-ins each area may import (a package by its name, `@scope/name`; a built-in as
 * `node:x`, its subpaths included). Anything else is a sentence naming the file and the import.
 */
export const EXTERNALS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['common', ['@sinclair/typebox', 'i18next']],
  ['main/log', ['node:fs', 'node:path']],
  ['main/settings', ['@sinclair/typebox', 'conf', 'node:fs', 'node:os', 'node:path']],
  [
    'main/kube',
    [
      '@kubernetes/client-node',
      'yaml',
      'node:child_process',
      'node:crypto',
      'node:fs',
      'node:http',
      'node:https',
      'node:net',
      'node:os',
      'node:path',
      'node:stream',
      'node:tls',
      'node:util',
      'node:zlib',
    ],
  ],
  ['main/inventory', []],
  ['main/telemetry', []],
  ['main/alerts', []],
  ['main/diagnosis', []],
  ['main/writeback', ['@sinclair/typebox']],
  ['main/timeline', ['node:fs', 'node:path', 'node:sqlite', 'node:worker_threads']],
  ['main/forward', ['@sinclair/typebox', 'node:crypto', 'node:fs', 'node:http', 'node:https', 'node:path']],
  ['main/fleet', ['@sinclair/typebox', 'node:crypto']],
  ['main/demo', ['node:path']],
  ['main/web', ['node:crypto', 'node:fs', 'node:http', 'node:net', 'node:path']],
  [
    'main/controller',
    ['node:crypto', 'node:fs', 'node:http', 'node:net', 'node:os', 'node:path', 'prom-client', 'yaml'],
  ],
  [
    'main/cli',
    ['leven', 'node:child_process', 'node:fs', 'node:os', 'node:path', 'node:url', 'node:util', 'yaml'],
  ],
  ['main/electron', ['@sinclair/typebox', 'electron', 'node:fs', 'node:path']],
  ['main/engine-host', ['@sinclair/typebox', 'node:path', 'node:perf_hooks']],
  ['main/index.ts', ['electron']],
  ['renderer', ['svelte']],
  ['preload', ['electron']],
  [
    'sim',
    [
      '@peculiar/x509',
      'reflect-metadata',
      'yaml',
      'node:crypto',
      'node:fs',
      'node:http',
      'node:https',
      'node:net',
      'node:os',
      'node:path',
      'node:zlib',
    ],
  ],
]);

/** The name an external specifier is allowed by: `@scope/pkg`, `pkg`, or `node:x` (subpaths folded). */
export function externalName(spec: string): string {
  if (spec.startsWith('node:')) return spec.split('/')[0] as string;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

const SIM_STATIC = new Set(['main/cli/commands/sim.ts']);
const SIM_LAZY = new Set(['main/engine-host/serve.ts', 'main/cli/commands/serve.ts']);
const ELECTRON_OK = (file: string) =>
  file.startsWith('main/electron/') || file === 'main/index.ts' || file === 'preload/index.ts';
const HOST_SETTINGS_BACKEND = 'main/engine-host/settings-backend.ts';
const HOST_ENTRY = 'main/engine-host/entry.ts';

export function isTestFile(file: string): boolean {
  return /\.(test|testkit)\.ts$/.test(file);
}

/** The layer area of a file: `common`, `main/<folder>`, `main/index.ts`, or the top folder (renderer, preload, sim, test). */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'main') return parts[0] as string;
  return parts.length === 2 ? file : `main/${parts[1]}`;
}

const isLocal = (to: string) =>
  to.startsWith('.') || /^(main|common|renderer|preload|sim|test|bench|scripts)\//.test(to);

function describeEdge(e: ImportEdge): string {
  const how = e.dynamic ? 'import()' : e.typeOnly ? 'import type' : 'import';
  return `${e.from} → ${e.to} (${how})`;
}

/** Every broken rule, one sentence each, sorted. */
export function layerViolations(edges: readonly ImportEdge[]): string[] {
  const out = new Set<string>();
  for (const e of edges) {
    const from = areaOf(e.from);
    const test = isTestFile(e.from);
    if (e.opaque !== undefined) {
      if (test) continue;
      out.add(
        `${e.from}: ${e.opaque === 'computed-import' ? 'import() of a computed name' : e.opaque} — product code loads modules only by static import or import() of a literal, so the layer rule can follow them`,
      );
      continue;
    }
    if (e.to === 'electron' || e.to.startsWith('electron/')) {
      if (!ELECTRON_OK(e.from) && !test)
        out.add(`${describeEdge(e)}: only main/electron/, main/index.ts and the preload import 'electron'`);
      continue;
    }
    if (e.to === 'electron-store') {
      if (!ELECTRON_OK(e.from) && e.from !== HOST_SETTINGS_BACKEND && !test)
        out.add(
          `${describeEdge(e)}: electron-store imports 'electron'; only main/electron/, main/index.ts and ${HOST_SETTINGS_BACKEND} import it`,
        );
      continue;
    }
    if (e.to === HOST_SETTINGS_BACKEND && e.from !== HOST_ENTRY) {
      out.add(
        `${describeEdge(e)}: only ${HOST_ENTRY} loads the electron-store backend (it imports 'electron'; a test loads it through the built host under the Electron double)`,
      );
      continue;
    }
    // Test files may import anything else and are not checked against the layers.
    if (test) continue;
    // bench/ is not layered: only the electron rule and the opaque loads above bind it.
    if (from === 'bench') continue;
    if (!isLocal(e.to)) {
      const allowed = EXTERNALS.get(from);
      const name = externalName(e.to);
      if (allowed === undefined)
        out.add(`${describeEdge(e)}: ${from} has no list of allowed packages (add it to EXTERNALS)`);
      else if (!allowed.includes(name))
        out.add(
          `${describeEdge(e)}: ${from} may import ${allowed.length === 0 ? 'no package or built-in (it is pure)' : `only ${allowed.join(', ')}`}`,
        );
      continue;
    }
    const to = areaOf(e.to);
    if (from === to) continue;
    if (to === 'sim') {
      const ok = SIM_STATIC.has(e.from) || (SIM_LAZY.has(e.from) && (e.dynamic || e.typeOnly));
      if (!ok)
        out.add(
          `${describeEdge(e)}: only the CLI's sim command imports sim/; the demo shells load it with import() (the engine and app core never import it)`,
        );
      continue;
    }
    if (from === 'renderer' || from === 'preload') {
      if (to !== 'common') out.add(`${describeEdge(e)}: ${from}/ imports only common/ and itself`);
      continue;
    }
    if (from === 'sim') {
      out.add(`${describeEdge(e)}: sim/ imports only itself`);
      continue;
    }
    const rf = RANKS.get(from);
    const rt = RANKS.get(to);
    if (rf === undefined) {
      out.add(`${describeEdge(e)}: ${from} is in no layer (add it to RANKS in test/architecture/layers.ts)`);
      continue;
    }
    if (rt === undefined) {
      out.add(`${describeEdge(e)}: source outside test files imports ${to}, which is in no layer`);
      continue;
    }
    if (rt === rf)
      out.add(
        `${describeEdge(e)}: ${from} and ${to} are siblings (layer ${rf}) and do not import each other`,
      );
    else if (rt > rf)
      out.add(`${describeEdge(e)}: upward import, ${from} (layer ${rf}) below ${to} (layer ${rt})`);
  }
  for (const c of cycles(edges)) out.add(`import cycle: ${c.join(' → ')}`);
  return [...out].sort();
}
