/**
 * A test sits next to what it proves and bears its name: `x.test.ts` (or `x.property.test.ts`) beside
 * `x.ts`, `x.svelte.ts`, `x.svelte` or the folder `x/`. The only exceptions are the tests below, each of a
 * behaviour that crosses files (most of them against the simulator), named for that behaviour and listed
 * with why, so a unit test cannot drift away from its source again unnoticed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph.ts';

const BEHAVIOURS: ReadonlyMap<string, string> = new Map([
  [
    'main/fleet/no-free-alert.test.ts',
    'the optional no-free-GPU alert through the engine against the simulator',
  ],
  [
    'main/fleet/source/controller-free.test.ts',
    "free GPUs read from the controller's status, and their stale mark, against the simulator",
  ],
  ['main/cli/commands/notify-forward.test.ts', '`notify test` and `watch --forward` against the ntfy fake'],
  ['main/cli/commands/scan-watch.test.ts', "the CLI's acceptance checks against the simulator"],
  [
    'main/cli/commands/watch-quiet.test.ts',
    'a quiet cluster prints nothing: engine + watch lines, virtual time',
  ],
  [
    'main/cli/commands/watch-reasons.test.ts',
    "a drop's alert line names each node's reason, against the sim",
  ],
  ['main/cli/commands/watch-source.test.ts', '`watch --source` against the sim'],
  ['main/cli/commands/watch-writeback.test.ts', '`crd --install` and `watch --write-back` against the sim'],
  ['main/fleet/app-forwarding.test.ts', 'the app core with a real forwarder: no token leaks anywhere'],
  ['main/fleet/free-gpus.test.ts', 'free GPUs through the engine on the pods watch, against the sim'],
  [
    'main/fleet/node-events-watch.test.ts',
    "events about GPU nodes through the engine's watch, against the sim",
  ],
  ['main/fleet/kubectl-switch.test.ts', "the app core's kubectl switcher through the contract"],
  ['main/fleet/node-detail.test.ts', 'the node:detail channel through the engine, against the sim'],
  [
    'main/fleet/source/controller-source.test.ts',
    'the tray reading the in-cluster controller (lease, feed, handover)',
  ],
  ['main/fleet/telemetry.test.ts', 'DCGM telemetry through the engine to detail and alerts'],
  [
    'main/forward/cause-text.test.ts',
    'the real cause first in every text one alert makes: inventory → policy → notification → forward',
  ],
  [
    'main/forward/render.test.ts',
    'the body each target receives (render-chat, -ntfy, -webhook: one fixture)',
  ],
  [
    'main/settings/alert-roundtrip.property.test.ts',
    'every alert the engine can raise is stored and read back',
  ],
  [
    'renderer/components/problems-i18n.test.ts',
    "GPU problems built by the engine's inventory, worded by the card, table and detail in Korean",
  ],
  [
    'renderer/components/forwarding-i18n.test.ts',
    "forwarding refusals and problems of the vault, main and the host, read as the preload reads them, worded by the section's parts in Korean",
  ],
  [
    'renderer/components/kubectl-i18n.test.ts',
    "refusals of a kubectl context switch, read as the preload reads them, worded by the window's message in Korean",
  ],
  [
    'renderer/components/settings-i18n.test.ts',
    "the host's refusals of a settings save, read as the preload reads them, worded by the status line in Korean",
  ],
  [
    'renderer/components/bridge-i18n.test.ts',
    "the real bridges' own failures (web bridge, settleReply) worded by the startup screen, History and the kubectl list in Korean",
  ],
  [
    'main/kube/use-context-words.test.ts',
    "use-context's refusals made for real (kubeconfig-write.ts, use-context.ts) carry their words, their sentence the catalog's English",
  ],
  ['main/timeline/free.test.ts', 'free GPUs by product: written by the recorder, read back as step lines'],
  [
    'main/timeline/slices.test.ts',
    'the recorder writes a large inventory in short timer tasks, then reads it',
  ],
  [
    'main/timeline/telemetry-read.test.ts',
    'telemetry written by the recorder, aggregated per node and read over every range',
  ],
  ['main/web/kubectl-route.test.ts', "browser mode's kubectl route behind the write guard"],
  ['main/writeback/crd-inventory.property.test.ts', "every built inventory passes the CRD's schema"],
]);

const ROOT = process.cwd();
const TESTED_ROOTS = ['main/', 'common/', 'renderer/'];

/** The test files of main/, common/ and renderer/ with no source of their name beside them. */
function unnamedTests(): string[] {
  return sourceFiles(ROOT)
    .filter((f) => TESTED_ROOTS.some((r) => f.startsWith(r)) && f.endsWith('.test.ts'))
    .filter((f) => {
      const stem = f.replace(/(\.property)?\.test\.ts$/, '');
      return ![`${stem}.ts`, `${stem}.svelte.ts`, `${stem}.svelte`, stem].some((s) =>
        fs.existsSync(path.join(ROOT, s)),
      );
    });
}

describe('test names', () => {
  it('name a source beside them, or are a listed behaviour test', () => {
    const stray = unnamedTests().filter((f) => !BEHAVIOURS.has(f));
    expect(stray, 'move each next to what it proves, or list it in BEHAVIOURS with why').toEqual([]);
  });

  it('list no behaviour test that is gone or has a source of its name by now', () => {
    const unnamed = new Set(unnamedTests());
    expect([...BEHAVIOURS.keys()].filter((f) => !unnamed.has(f))).toEqual([]);
  });
});
