/** Pure: the stored settings as the window sees them, and a window's patch as a settings update. */
import { copyDict } from '../../common/dict.ts';
import type { SettingsView, SettingsPatch as ViewPatch } from '../../common/settings.ts';
import type { Settings } from '../settings/schema.ts';
import type { SettingsPatch } from '../settings/store.ts';

export function toSettingsView(s: Readonly<Settings>): SettingsView {
  return {
    monitoredContexts: [...s.contexts],
    alertRules: {
      holdDownMs: s.alertRules.holdDownMs,
      unreachableAfterMs: s.alertRules.unreachableAfterMs,
      withdrawnGpus: s.alertRules.withdrawnGpus,
      gpuHotC: s.alertRules.gpuHotC,
      noFreeGpu: s.alertRules.noFreeGpu,
    },
    writeBack: copyDict(s.writeBack),
    writeBackTakeOver: copyDict(s.writeBackTakeOver),
    source: copyDict(s.source),
    controllerNamespace: copyDict(s.controllerNamespace),
    freeGpus: copyDict(s.freeGpus),
    crdGroup: s.crdGroup,
    configMapNamespace: s.configMapNamespace,
    launchAtLogin: s.launchAtLogin,
    theme: s.theme,
    language: s.language,
    telemetry: { ...s.telemetry },
    mergeSameCluster: s.mergeSameCluster,
    timeline: { ...s.timeline },
  };
}

export function fromViewPatch(patch: ViewPatch, current: Readonly<Settings>): SettingsPatch {
  const out: SettingsPatch = {};
  if (patch.monitoredContexts) out.contexts = [...new Set(patch.monitoredContexts)];
  if (patch.alertRules) out.alertRules = { ...current.alertRules, ...patch.alertRules };
  if (patch.writeBack) out.writeBack = copyDict(patch.writeBack);
  if (patch.writeBackTakeOver) out.writeBackTakeOver = copyDict(patch.writeBackTakeOver);
  if (patch.source) out.source = copyDict(patch.source);
  if (patch.controllerNamespace) out.controllerNamespace = copyDict(patch.controllerNamespace);
  if (patch.freeGpus) out.freeGpus = copyDict(patch.freeGpus);
  if (patch.crdGroup !== undefined) out.crdGroup = patch.crdGroup;
  if (patch.configMapNamespace !== undefined) out.configMapNamespace = patch.configMapNamespace;
  if (patch.launchAtLogin !== undefined) out.launchAtLogin = patch.launchAtLogin;
  if (patch.theme !== undefined) out.theme = patch.theme;
  if (patch.language !== undefined) out.language = patch.language;
  if (patch.telemetry) out.telemetry = { ...patch.telemetry };
  if (patch.mergeSameCluster !== undefined) out.mergeSameCluster = patch.mergeSameCluster;
  if (patch.timeline) out.timeline = { ...patch.timeline };
  return out;
}
