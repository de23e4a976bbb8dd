/**
 * Drives a TelemetryHub's background scrapes against a running sim on a manual clock, one budget step at a
 * time, and returns what the API server logged for them (the budget test and the bench row share it).
 */
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import type { TelemetrySettingsView } from '../../common/telemetry.ts';
import type { RunningSim } from '../../sim/index.ts';
import type { ManualClock } from '../../test/helpers/manual-clock.ts';
import { NO_SNOOZE } from '../alerts/snooze.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import { ContextClient } from '../kube/context-client.ts';
import type { ResolvedContext } from '../kube/kubeconfig-types.ts';
import { TelemetryHub } from './telemetry-hub.ts';

export interface DriveResult {
  log: ReturnType<RunningSim['control']['requestLog']>;
  alerts: PolicyAlert[];
  hub: TelemetryHub;
}

export async function driveBackground(o: {
  sim: RunningSim;
  context: ResolvedContext;
  gpuNodes: readonly string[];
  clock: ManualClock;
  minutes: number;
  settings: TelemetrySettingsView;
}): Promise<DriveResult> {
  const alerts: PolicyAlert[] = [];
  const hub = new TelemetryHub({
    clock: o.clock,
    makeClient: (c) => new ContextClient(c, { clock: o.clock }),
    settings: () => o.settings,
    rules: () => DEFAULT_ALERT_RULES,
    snooze: () => NO_SNOOZE,
    gpuNodes: () => o.gpuNodes,
    alert: (a) => alerts.push(a),
    changed: () => {},
  });
  o.sim.control.resetRequestLog();
  hub.set([o.context]);
  const step = Math.ceil(60_000 / o.settings.budgetPerMinute);
  const steps = Math.floor((o.minutes * 60_000) / step);
  try {
    for (let i = 1; i <= steps; i++) {
      o.clock.advance(step);
      // The step's requests are real HTTPS to the sim: give the event loop turns until it has finished.
      for (let spin = 0; hub.stepsDone < i; spin++) {
        if (spin > 200_000) throw new Error(`background step ${i} did not finish`);
        await new Promise((r) => setImmediate(r));
      }
    }
  } finally {
    hub.stop();
  }
  return { log: o.sim.control.requestLog().filter((e) => e.user === 'sim-admin'), alerts, hub };
}
