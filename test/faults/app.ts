/** An AppCore (settings + kubeconfig watching + engine) with the fault matrix's fast engine, recorded. */
import { DEFAULT_ALERT_RULES } from '../../common/alert-rules.ts';
import { AppCore } from '../../main/fleet/app-core.ts';
import type { KubeconfigLocateOptions } from '../../main/kube/kubeconfig.ts';
import { openSettings } from '../../main/settings/store.ts';
import { EngineRun, FAST } from './harness.ts';

export interface App {
  core: AppCore;
  run: EngineRun;
  stop(): void;
}

export function startApp(kubeconfig: KubeconfigLocateOptions, settingsDir: string): App {
  const settings = openSettings({ cwd: settingsDir });
  if (settings.notices.every((n) => n.kind !== 'unsaved'))
    settings.update({ alertRules: { ...DEFAULT_ALERT_RULES, holdDownMs: 0, flapThreshold: 1000 } });
  const { rules: _rules, ...engine } = FAST;
  const core = new AppCore({ settings, kubeconfig, mode: 'browser', version: 'test', engine });
  const run = new EngineRun(core.engine);
  core.start();
  return { core, run, stop: () => core.stop() };
}
