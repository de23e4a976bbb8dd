/**
 * The one-way import rule (test/architecture/layers.ts) holds over every import of main/, common/,
 * renderer/, preload/ and sim/, and the check itself catches each kind of leak it is there for.
 */
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importGraph, importsOf } from './import-graph.ts';
import { layerViolations } from './layers.ts';

describe('the source tree', () => {
  const graph = importGraph(process.cwd());

  it('reads a realistic number of imports (the parser sees the tree)', () => {
    expect(graph.length).toBeGreaterThan(500);
    expect(graph.some((e) => e.from.endsWith('.svelte'))).toBe(true);
  });

  it('imports only along the layers, with no cycle', () => {
    const found = layerViolations(graph);
    expect(found).toEqual([]);
  });
});

const edge = (from: string, to: string, extra: Partial<ImportEdge> = {}): ImportEdge => ({
  from,
  to,
  typeOnly: false,
  dynamic: false,
  ...extra,
});

describe('the check', () => {
  it.each([
    [
      'an upward type import',
      edge('main/writeback/hub.ts', 'main/fleet/engine.ts', { typeOnly: true }),
      'upward import',
    ],
    ['settings importing alerts', edge('main/settings/store.ts', 'main/alerts/rules.ts'), 'upward import'],
    [
      'log importing fleet',
      edge('main/log/engine-log.ts', 'main/fleet/engine.ts', { typeOnly: true }),
      'upward import',
    ],
    [
      'kube importing inventory',
      edge('main/kube/node-cache.ts', 'main/inventory/json-equal.ts'),
      'upward import',
    ],
    ['siblings', edge('main/alerts/policy.ts', 'main/writeback/crd.ts'), 'siblings'],
    ['the engine importing sim', edge('main/fleet/demo.ts', 'sim/index.ts'), 'only the CLI'],
    ['a shell importing sim statically', edge('main/electron/desktop.ts', 'sim/demo.ts'), 'only the CLI'],
    [
      'the renderer importing main',
      edge('renderer/lib/x.ts', 'main/fleet/health.ts'),
      'imports only common/',
    ],
    ['the preload importing main', edge('preload/index.ts', 'main/fleet/host.ts'), 'imports only common/'],
    ['sim importing main', edge('sim/x.ts', 'main/kube/clock.ts'), 'sim/ imports only itself'],
    ['electron outside the shell', edge('main/fleet/engine.ts', 'electron'), "import 'electron'"],
    [
      'electron-store in the settings layer',
      edge('main/settings/store.ts', 'electron-store'),
      "electron-store imports 'electron'",
    ],
    [
      'electron-store in the host outside its backend',
      edge('main/engine-host/serve.ts', 'electron-store'),
      "electron-store imports 'electron'",
    ],
    [
      'the host backend loaded by serve.ts',
      edge('main/engine-host/serve.ts', 'main/engine-host/settings-backend.ts'),
      'only main/engine-host/entry.ts loads',
    ],
    [
      'the host backend loaded by a test',
      edge('main/engine-host/serve.test.ts', 'main/engine-host/settings-backend.ts'),
      'only main/engine-host/entry.ts loads',
    ],
    ['a folder in no layer', edge('main/newthing/a.ts', 'common/dict.ts'), 'in no layer'],
    ['pure inventory importing node:http', edge('main/inventory/derive.ts', 'node:http'), 'it is pure'],
    ['the renderer importing node:fs', edge('renderer/lib/x.ts', 'node:fs'), 'may import only svelte'],
    [
      'the renderer importing client-node',
      edge('renderer/lib/x.ts', '@kubernetes/client-node'),
      'may import only svelte',
    ],
    ['alerts importing a package', edge('main/alerts/policy.ts', 'yaml'), 'it is pure'],
    ['electron from bench', edge('bench/rows/x.ts', 'electron'), "import 'electron'"],
    [
      'electron-store outside main/electron',
      edge('main/settings/store.ts', 'electron-store'),
      "electron-store imports 'electron'",
    ],
    [
      'require in product code',
      edge('main/fleet/x.ts', 'node:fs', { opaque: 'require' }),
      'product code loads modules only',
    ],
    [
      'createRequire in product code',
      edge('main/kube/x.ts', 'node:module', { opaque: 'createRequire' }),
      'product code loads modules only',
    ],
    [
      'a computed import()',
      edge('main/cli/x.ts', '<computed>', { dynamic: true, opaque: 'computed-import' }),
      'product code loads modules only',
    ],
    ['source importing test helpers', edge('main/fleet/engine.ts', 'test/helpers/poll.ts'), 'in no layer'],
    [
      "Electron's main importing the engine host's tray",
      edge('main/electron/tray.ts', 'main/engine-host/tray/tray-model.ts'),
      'siblings',
    ],
    [
      "the engine host importing Electron main's code",
      edge('main/engine-host/serve.ts', 'main/electron/engine-line.ts', { typeOnly: true }),
      'siblings',
    ],
    [
      'the demo choice importing the tray',
      edge('main/demo/demo.ts', 'main/engine-host/tray/tray-model.ts'),
      'upward import',
    ],
  ])('fails on %s', (_name, e, words) => {
    const found = layerViolations([e]);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(words);
  });

  it.each([
    ['a downward import', edge('main/fleet/engine.ts', 'main/kube/clock.ts')],
    ['common from the renderer', edge('renderer/lib/x.ts', 'common/health.ts')],
    ["the CLI's sim command", edge('main/cli/commands/sim.ts', 'sim/cli.ts')],
    ['a shell loading the demo lazily', edge('main/engine-host/serve.ts', 'sim/demo.ts', { dynamic: true })],
    ['electron in the shell', edge('main/electron/tray.ts', 'electron')],
    ['electron-store in the shell', edge('main/electron/x.ts', 'electron-store')],
    ["electron-store in the host's backend", edge('main/engine-host/settings-backend.ts', 'electron-store')],
    [
      "the host's entry loading the backend",
      edge('main/engine-host/entry.ts', 'main/engine-host/settings-backend.ts'),
    ],
    ['a test importing anything', edge('main/kube/list-pages.test.ts', 'sim/index.ts')],
    ['a package', edge('main/kube/auth-options.ts', '@kubernetes/client-node')],
    ['a subpath of an allowed package', edge('main/settings/validate.ts', '@sinclair/typebox/value')],
    ['a subpath of an allowed built-in', edge('main/web/static-files.ts', 'node:fs/promises')],
    ['svelte internals in the renderer', edge('renderer/App.svelte', 'svelte/store')],
    ['bench importing anything but electron', edge('bench/rows/x.ts', 'main/fleet/engine.ts')],
    ["the engine host's own tray", edge('main/engine-host/serve.ts', 'main/engine-host/tray/tray-model.ts')],
    ['both shells offering the demo', edge('main/cli/commands/serve.ts', 'main/demo/demo.ts')],
  ])('allows %s', (_name, e) => {
    expect(layerViolations([e])).toEqual([]);
  });

  it('fails on a cycle, type-only edges included', () => {
    const found = layerViolations([
      edge('main/fleet/app-core.ts', 'main/fleet/app-handlers.ts'),
      edge('main/fleet/app-handlers.ts', 'main/fleet/app-core.ts', { typeOnly: true }),
    ]);
    expect(found).toEqual(['import cycle: main/fleet/app-core.ts → main/fleet/app-handlers.ts']);
  });

  it('reads every form of import, in TypeScript and in Svelte scripts', () => {
    const ts = importsOf(
      'main/fleet/x.ts',
      [
        "import a from './a.ts';",
        "import type { B } from '../kube/b.ts';",
        "import { type C, type D } from './c.ts';",
        "export { e } from './e.ts';",
        "const f = await import('../../sim/demo.ts');",
        "type G = import('./g.ts').G;",
        "import 'electron';",
        "const h = require('node:http');",
        'const r = createRequire(import.meta.url);',
        'const m = await import(name);',
      ].join('\n'),
    );
    expect(ts.map((e) => [e.to, e.typeOnly, e.dynamic])).toEqual([
      ['main/fleet/a.ts', false, false],
      ['main/kube/b.ts', true, false],
      ['main/fleet/c.ts', true, false],
      ['main/fleet/e.ts', false, false],
      ['sim/demo.ts', false, true],
      ['main/fleet/g.ts', true, false],
      ['electron', false, false],
      ['node:http', false, false],
      ['node:module', false, false],
      ['<computed>', false, true],
    ]);
    expect(ts.filter((e) => e.opaque).map((e) => e.opaque)).toEqual([
      'require',
      'createRequire',
      'computed-import',
    ]);
    const svelte = importsOf(
      'renderer/components/X.svelte',
      '<script lang="ts">\nimport { y } from "../../main/fleet/engine.ts";\n</script>\n<p>{y}</p>',
    );
    expect(svelte.map((e) => e.to)).toEqual(['main/fleet/engine.ts']);
  });
});
