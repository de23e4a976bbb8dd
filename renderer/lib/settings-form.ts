/** The settings form's fields as text, their validation, and the patch they make: pure. */
import { GPU_HOT_C_MAX, GPU_HOT_C_MIN } from '../../common/alert-rules.ts';
import { hasControlChars } from '../../common/cluster-text.ts';
import { copyDict } from '../../common/dict.ts';
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import type { LanguageSetting } from '../../common/i18n/locales.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import { isApiGroupName, isNamespaceName } from '../../common/k8s-names.ts';
import type { InventorySource, SettingsPatch, SettingsView, Theme } from '../../common/settings.ts';
import { TELEMETRY_LIMITS, type TelemetrySettingsView } from '../../common/telemetry.ts';
import { TIMELINE_LIMITS } from '../../common/timeline.ts';

export interface SettingsDraft {
  monitored: string[];
  holdDownSec: string;
  unreachableSec: string;
  withdrawnGpus: boolean;
  gpuHotC: string;
  /** The optional no-free-GPU alert (AlertRulesView.noFreeGpu). */
  noFreeGpu: boolean;
  telemetryBackground: TelemetrySettingsView['background'];
  autoMaxGpuNodes: string;
  budgetPerMinute: string;
  writeBack: Record<string, boolean>;
  /** Context → inventory source (absent: auto) and the namespace of its controller's Lease (absent: gpu-fleet). */
  source: Record<string, InventorySource>;
  controllerNamespace: Record<string, string>;
  /** Context → false: free GPUs off there (absent: on). */
  freeGpus: Record<string, boolean>;
  crdGroup: string;
  configMapNamespace: string;
  launchAtLogin: boolean;
  theme: Theme;
  language: LanguageSetting;
  /** Contexts that reach the same cluster are one card (SettingsView.mergeSameCluster). */
  mergeSameCluster: boolean;
  /** The timeline (common/timeline.ts); an empty price shows no cost. */
  retentionDays: string;
  maxMB: string;
  pricePerKwh: string;
  currency: string;
}

export type FieldErrors = Partial<
  Record<
    | 'holdDownSec'
    | 'unreachableSec'
    | 'gpuHotC'
    | 'autoMaxGpuNodes'
    | 'budgetPerMinute'
    | 'crdGroup'
    | 'configMapNamespace'
    | 'controllerNamespace'
    | 'retentionDays'
    | 'maxMB'
    | 'pricePerKwh'
    | 'currency',
    string
  >
>;

export function draftFrom(s: SettingsView): SettingsDraft {
  return {
    monitored: [...s.monitoredContexts],
    holdDownSec: String(Math.round(s.alertRules.holdDownMs / 1000)),
    unreachableSec: String(Math.round(s.alertRules.unreachableAfterMs / 1000)),
    withdrawnGpus: s.alertRules.withdrawnGpus,
    gpuHotC: String(s.alertRules.gpuHotC),
    noFreeGpu: s.alertRules.noFreeGpu,
    telemetryBackground: s.telemetry.background,
    autoMaxGpuNodes: String(s.telemetry.autoMaxGpuNodes),
    budgetPerMinute: String(s.telemetry.budgetPerMinute),
    writeBack: copyDict(s.writeBack),
    source: copyDict(s.source),
    controllerNamespace: copyDict(s.controllerNamespace),
    freeGpus: copyDict(s.freeGpus),
    crdGroup: s.crdGroup,
    configMapNamespace: s.configMapNamespace,
    launchAtLogin: s.launchAtLogin,
    theme: s.theme,
    language: s.language,
    mergeSameCluster: s.mergeSameCluster,
    retentionDays: String(s.timeline.retentionDays),
    maxMB: String(s.timeline.maxMB),
    pricePerKwh: s.timeline.pricePerKwh === null ? '' : String(s.timeline.pricePerKwh),
    currency: s.timeline.currency,
  };
}

function seconds(text: string, max: number, whole: MessageKey, most: MessageKey, tr: Translator) {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return tr.t(whole);
  const n = Number(t);
  if (n > max) return tr.t(most, { max });
  return undefined;
}

/** A whole number from min to max, or the sentence saying so. */
function wholeIn(text: string, min: number, max: number, key: MessageKey, tr: Translator) {
  const t = text.trim();
  if (/^\d{1,9}$/.test(t) && Number(t) >= min && Number(t) <= max) return undefined;
  return tr.t(key, { min, max });
}

/** What is wrong with each field, in the window's language. */
export function validate(d: SettingsDraft, tr: Translator): FieldErrors {
  const errors: FieldErrors = {};
  const hold = seconds(
    d.holdDownSec,
    3600,
    'settings.errors.holdDownWhole',
    'settings.errors.holdDownMax',
    tr,
  );
  if (hold) errors.holdDownSec = hold;
  const unreach = seconds(
    d.unreachableSec,
    86_400,
    'settings.errors.unreachableWhole',
    'settings.errors.unreachableMax',
    tr,
  );
  if (unreach) errors.unreachableSec = unreach;
  const hot = wholeIn(d.gpuHotC, GPU_HOT_C_MIN, GPU_HOT_C_MAX, 'settings.errors.gpuHot', tr);
  if (hot) errors.gpuHotC = hot;
  const { autoMaxGpuNodes: nodes, budgetPerMinute: budget } = TELEMETRY_LIMITS;
  const autoMax = wholeIn(d.autoMaxGpuNodes, nodes.min, nodes.max, 'settings.errors.autoMaxGpuNodes', tr);
  if (autoMax) errors.autoMaxGpuNodes = autoMax;
  const perMinute = wholeIn(d.budgetPerMinute, budget.min, budget.max, 'settings.errors.budgetPerMinute', tr);
  if (perMinute) errors.budgetPerMinute = perMinute;
  const group = d.crdGroup.trim();
  if (!isApiGroupName(group)) errors.crdGroup = tr.t('settings.errors.crdGroup');
  const ns = d.configMapNamespace.trim();
  if (!isNamespaceName(ns)) errors.configMapNamespace = tr.t('settings.errors.namespace');
  const bad = Object.entries(d.controllerNamespace).find(
    ([, n]) => n.trim() !== '' && !isNamespaceName(n.trim()),
  );
  if (bad) errors.controllerNamespace = tr.t('settings.errors.controllerNamespace', { context: bad[0] });
  const L = TIMELINE_LIMITS;
  const days = wholeIn(d.retentionDays, L.retentionDays.min, L.retentionDays.max, 'timeline.errWhole', tr);
  if (days) errors.retentionDays = days;
  const mb = wholeIn(d.maxMB, L.maxMB.min, L.maxMB.max, 'timeline.errWhole', tr);
  if (mb) errors.maxMB = mb;
  const price = d.pricePerKwh.trim();
  if (price !== '' && !(/^\d{1,4}(\.\d{1,6})?$/.test(price) && Number(price) <= L.pricePerKwh.max))
    errors.pricePerKwh = tr.t('timeline.errPrice', { max: L.pricePerKwh.max });
  if (d.currency.trim().length > L.currencyMax || hasControlChars(d.currency))
    errors.currency = tr.t('timeline.errCurrency', { max: L.currencyMax });
  return errors;
}

/** The patch for a valid draft (call `validate` first). */
export function patchFrom(d: SettingsDraft): SettingsPatch {
  return {
    monitoredContexts: [...d.monitored],
    alertRules: {
      holdDownMs: Number(d.holdDownSec.trim()) * 1000,
      unreachableAfterMs: Number(d.unreachableSec.trim()) * 1000,
      withdrawnGpus: d.withdrawnGpus,
      gpuHotC: Number(d.gpuHotC.trim()),
      noFreeGpu: d.noFreeGpu,
    },
    telemetry: {
      background: d.telemetryBackground,
      autoMaxGpuNodes: Number(d.autoMaxGpuNodes.trim()),
      budgetPerMinute: Number(d.budgetPerMinute.trim()),
    },
    writeBack: copyDict(d.writeBack),
    source: copyDict(d.source),
    // An emptied field means the default namespace again.
    controllerNamespace: Object.fromEntries(
      Object.entries(d.controllerNamespace)
        .map(([c, n]) => [c, n.trim()] as const)
        .filter(([, n]) => n !== ''),
    ),
    freeGpus: copyDict(d.freeGpus),
    crdGroup: d.crdGroup.trim(),
    configMapNamespace: d.configMapNamespace.trim(),
    launchAtLogin: d.launchAtLogin,
    theme: d.theme,
    language: d.language,
    mergeSameCluster: d.mergeSameCluster,
    timeline: {
      retentionDays: Number(d.retentionDays.trim()),
      maxMB: Number(d.maxMB.trim()),
      pricePerKwh: d.pricePerKwh.trim() === '' ? null : Number(d.pricePerKwh.trim()),
      currency: d.currency.trim(),
    },
  };
}
