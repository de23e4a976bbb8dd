/** The settings form's fields as text, the patch they make, and its validation by the settings schema: pure. */

import { copyDict, own } from '../../common/dict.ts';
import type { MessageKey } from '../../common/i18n/catalog-types.ts';
import type { LanguageSetting } from '../../common/i18n/locales.ts';
import type { Translator } from '../../common/i18n/translator.ts';
import {
  CONTEXTS_MAX,
  type InventorySource,
  type SettingsPatch,
  type SettingsView,
  type Theme,
} from '../../common/settings.ts';
import { type PatchProblem, settingsPatchProblems } from '../../common/settings-errors.ts';
import type { TelemetrySettingsView } from '../../common/telemetry.ts';

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

/** The form's fields that can be wrong, and `monitored` (too many contexts) and `other` (no field of the form). */
export type FieldName =
  | 'monitored'
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
  | 'currency'
  | 'other';
export type FieldErrors = Partial<Record<FieldName, string>>;

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

/** Where a refused patch field shows in the form, and its sentence (limits from the schema's own). */
type Wording = (p: PatchProblem, tr: Translator) => string;
const range =
  (key: MessageKey): Wording =>
  (p, tr) =>
    tr.t(key, { min: p.minimum ?? 0, max: p.maximum ?? 0 });
const seconds =
  (whole: MessageKey, most: MessageKey): Wording =>
  (p, tr) =>
    p.tooLarge ? tr.t(most, { max: (p.maximum ?? 0) / 1000 }) : tr.t(whole);
const FIELDS: Record<string, readonly [FieldName, Wording]> = {
  monitoredContexts: [
    'monitored',
    (p, tr) =>
      p.tooLarge
        ? tr.t('settings.errors.monitoredMax', { max: CONTEXTS_MAX })
        : tr.t('settings.errors.other'),
  ],
  'alertRules.holdDownMs': [
    'holdDownSec',
    seconds('settings.errors.holdDownWhole', 'settings.errors.holdDownMax'),
  ],
  'alertRules.unreachableAfterMs': [
    'unreachableSec',
    seconds('settings.errors.unreachableWhole', 'settings.errors.unreachableMax'),
  ],
  'alertRules.gpuHotC': ['gpuHotC', range('settings.errors.gpuHot')],
  'telemetry.autoMaxGpuNodes': ['autoMaxGpuNodes', range('settings.errors.autoMaxGpuNodes')],
  'telemetry.budgetPerMinute': ['budgetPerMinute', range('settings.errors.budgetPerMinute')],
  crdGroup: ['crdGroup', (_p, tr) => tr.t('settings.errors.crdGroup')],
  configMapNamespace: ['configMapNamespace', (_p, tr) => tr.t('settings.errors.namespace')],
  'timeline.retentionDays': ['retentionDays', range('timeline.errWhole')],
  'timeline.maxMB': ['maxMB', range('timeline.errWhole')],
  'timeline.pricePerKwh': ['pricePerKwh', (p, tr) => tr.t('timeline.errPrice', { max: p.maximum ?? 0 })],
  'timeline.currency': ['currency', (p, tr) => tr.t('timeline.errCurrency', { max: p.maxLength ?? 0 })],
};

/** What is wrong with each field, in the window's language: the settings schema's verdict on the patch. */
export function validate(d: SettingsDraft, tr: Translator): FieldErrors {
  const errors: FieldErrors = {};
  for (const p of settingsPatchProblems(patchFrom(d))) {
    const [top, context] = p.path;
    if (top === 'controllerNamespace' && context !== undefined) {
      errors.controllerNamespace ??= tr.t('settings.errors.controllerNamespace', { context });
      continue;
    }
    const rule = own(FIELDS, p.path.join('.'));
    if (rule) errors[rule[0]] ??= rule[1](p, tr);
    else errors.other ??= tr.t('settings.errors.other');
  }
  return errors;
}

/** A whole number typed in a field, or NaN (which the schema refuses, and `validate` words). */
function whole(text: string): number {
  const t = text.trim();
  return /^\d{1,15}$/.test(t) ? Number(t) : Number.NaN;
}

/** A decimal number typed in a field (digits, optionally a point and more), or NaN. */
function decimal(text: string): number {
  const t = text.trim();
  return /^\d{1,15}(\.\d{1,15})?$/.test(t) ? Number(t) : Number.NaN;
}

/** The patch the draft makes: valid when `validate` finds nothing (text that is no number is NaN). */
export function patchFrom(d: SettingsDraft): SettingsPatch {
  return {
    monitoredContexts: [...d.monitored],
    alertRules: {
      holdDownMs: whole(d.holdDownSec) * 1000,
      unreachableAfterMs: whole(d.unreachableSec) * 1000,
      withdrawnGpus: d.withdrawnGpus,
      gpuHotC: whole(d.gpuHotC),
      noFreeGpu: d.noFreeGpu,
    },
    telemetry: {
      background: d.telemetryBackground,
      autoMaxGpuNodes: whole(d.autoMaxGpuNodes),
      budgetPerMinute: whole(d.budgetPerMinute),
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
      retentionDays: whole(d.retentionDays),
      maxMB: whole(d.maxMB),
      pricePerKwh: d.pricePerKwh.trim() === '' ? null : decimal(d.pricePerKwh),
      currency: d.currency.trim(),
    },
  };
}
