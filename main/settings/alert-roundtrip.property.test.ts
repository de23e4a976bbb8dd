// One validator at the door: every alert the engine can produce, from anything its doors accept (node
// names a cluster may use, DCGM samples of any value, context names the kubeconfig loader takes), is
// stored by the settings file and read back unchanged. Before, a node named `gpu-id-token-1` and an
// exporter's XID 79.5 were raised, notified, then refused by the settings file and lost from the log.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { isNodeName } from '../../common/k8s-names.ts';
import { appendAlerts } from '../alerts/alert-log.ts';
import { evaluateGpus, INITIAL_GPU_HEALTH } from '../alerts/gpu-health.ts';
import { play, type Step } from '../alerts/scenario.testkit.ts';
import { NO_SNOOZE } from '../alerts/snooze.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { contextNameProblem } from '../kube/kubeconfig-entries.ts';
import { readGpus } from '../telemetry/dcgm-read.ts';
import type { Sample } from '../telemetry/prom-text.ts';
import { openSettings } from './store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-fleet-roundtrip-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;

/** Stores `alerts` in a fresh settings file and reads them back from disk. */
function roundTrip(alerts: PolicyAlert[]): unknown {
  const cwd = path.join(root, String(n++));
  fs.mkdirSync(cwd);
  const s = openSettings({ cwd });
  s.update({ alertLog: appendAlerts([], alerts) });
  return openSettings({ cwd }).get('alertLog');
}

const nodeName = fc.oneof(
  fc.constantFrom('gpu-id-token-1', 'client-key-data', 'refresh-token-node', 'a'.repeat(253)),
  fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,40}[a-z0-9])?$/).filter(isNodeName),
);
const contextName = fc
  .oneof(fc.constantFrom('oidc-id-token', 'c'.repeat(253)), fc.string({ minLength: 1, maxLength: 253 }))
  .filter((c) => contextNameProblem(c) === null);
const value = fc.oneof(
  fc.double(),
  fc.integer({ min: -5, max: 300 }),
  fc.constantFrom(79.5, -1, 1e308, -1e308, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY),
);
const label = fc.string({ maxLength: 2000 });

describe('every alert the engine can produce round-trips through the settings file', () => {
  it('node alerts (drops, recoveries, unreachable, flapping, withdrawn GPUs) on any node and context names', () => {
    fc.assert(
      fc.property(
        contextName,
        fc.uniqueArray(nodeName, { minLength: 1, maxLength: 4 }),
        fc.array(
          fc.oneof(
            fc.constant('unreachable' as const),
            fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        (ctx, nodes, timeline) => {
          const steps: Step[] = timeline.map((t, i) => [
            i * 40,
            ctx,
            t === 'unreachable'
              ? 'unreachable'
              : Object.fromEntries(
                  nodes.map((name, j) => [name, t[j] ? true : { ready: false, cap: 4, alloc: j % 2 }]),
                ),
          ]);
          const { alerts } = play(steps, { flapThreshold: 2 });
          expect(roundTrip(alerts)).toEqual(alerts);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('GPU alerts (XID, gone, hot) from DCGM samples of any value and label', () => {
    fc.assert(
      fc.property(
        contextName,
        nodeName,
        fc.array(fc.record({ xid: value, temp: value, uuid: label, model: label }), {
          minLength: 1,
          maxLength: 3,
        }),
        (ctx, node, gpus) => {
          const samples: Sample[] = gpus.flatMap((g, i) => {
            const labels = { gpu: String(i), UUID: g.uuid, modelName: g.model };
            return [
              { name: 'DCGM_FI_DEV_XID_ERRORS', labels, value: g.xid },
              { name: 'DCGM_FI_DEV_GPU_TEMP', labels, value: g.temp },
            ];
          });
          const rules = { ...DEFAULT_ALERT_RULES, gpuHotC: 80 };
          const t0 = Date.UTC(2026, 10, 29, 12);
          const alerts: PolicyAlert[] = [];
          let state = INITIAL_GPU_HEALTH;
          // Seen twice ten minutes apart (a hot GPU alerts after a while), then gone.
          for (const [at, read] of [
            [t0, readGpus(samples)],
            [t0 + 600_000, readGpus(samples)],
            [t0 + 1_200_000, []],
          ] as const) {
            const out = evaluateGpus(state, { context: ctx, node, at, gpus: read }, rules, NO_SNOOZE);
            state = out.state;
            alerts.push(...out.alerts);
          }
          expect(roundTrip(alerts)).toEqual(alerts);
        },
      ),
      { numRuns: 60 },
    );
  });
});
