/**
 * Pure: the stored settings as the window sees them, and a window's patch as a settings update. Both are
 * derived from the one schema (common/settings.ts): the view is the document cut to `SettingsViewSchema`,
 * with `contexts` named `monitoredContexts`; a patch is already checked against `SettingsPatchSchema`.
 */
import { Value } from '@sinclair/typebox/value';
import {
  type Settings,
  type SettingsPatch,
  type SettingsView,
  SettingsViewSchema,
} from '../../common/settings.ts';
import type { SettingsUpdate } from '../settings/store.ts';

const VIEW_KEYS = Object.keys(SettingsViewSchema.properties) as (keyof SettingsView)[];

export function toSettingsView(s: Readonly<Settings>): SettingsView {
  const picked: Record<string, unknown> = {};
  for (const key of VIEW_KEYS) picked[key] = key === 'monitoredContexts' ? s.contexts : s[key];
  // A copy (the stored document is frozen), cut to the view: alertRules loses the rules the window has not.
  return Value.Clean(SettingsViewSchema, structuredClone(picked)) as SettingsView;
}

export function fromViewPatch(patch: SettingsPatch, current: Readonly<Settings>): SettingsUpdate {
  const { monitoredContexts, alertRules, ...fields } = structuredClone(patch);
  return {
    ...fields,
    ...(monitoredContexts === undefined ? {} : { contexts: monitoredContexts }),
    // The window sends the rules it shows; the others stay as they are.
    ...(alertRules === undefined ? {} : { alertRules: { ...current.alertRules, ...alertRules } }),
  };
}
