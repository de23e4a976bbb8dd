/**
 * Settings versions and the steps between them. A file is brought up one version at a time,
 * each step checked against the schema of the version it reads, then missing fields of the
 * current version are filled with defaults.
 *
 * Version 1 (the first release's shape, kept here so its files still open):
 *   { version?: 1, contexts: string[], holdDownSeconds: number, writeBack?: string[],
 *     crdGroup?: string, theme?: 'system'|'light'|'dark', pausedUntil?: string|null }
 * `writeBack` listed the contexts with write-back on; `pausedUntil` was an RFC 3339 time.
 *
 * Fields added within version 2 (filled with their defaults when a file lacks them): `writeBackTakeOver`
 * ({}: take-over is never on until the user turns it on for a context), `language` ('auto': follow the OS),
 * `source` and `controllerNamespace` ({}: every context reads `auto` with the controller's Lease in
 * `gpu-fleet`), `freeGpus` ({}: free GPUs on everywhere), `mergeSameCluster` (true: contexts of one
 * cluster are one card), `forwarding` ([]: no forwarding targets), `alertRules.noFreeGpu` (false: the
 * no-free-GPU alert is off until turned on).
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isObj } from '../../common/json-guards.ts';
import { defaultSettings, SETTINGS_VERSION, type Settings } from '../../common/settings.ts';
import { errorText } from '../../common/validate.ts';
import { assertSettings, dotted, SettingsError } from './validate.ts';

export const SettingsV1 = Type.Object({
  version: Type.Optional(Type.Literal(1)),
  contexts: Type.Array(Type.String({ minLength: 1 })),
  holdDownSeconds: Type.Number({ minimum: 0 }),
  writeBack: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  crdGroup: Type.Optional(Type.String()),
  theme: Type.Optional(Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')])),
  pausedUntil: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type SettingsV1 = Static<typeof SettingsV1>;

function fromV1(v1: SettingsV1): Record<string, unknown> {
  const d = defaultSettings();
  const paused = v1.pausedUntil ? Date.parse(v1.pausedUntil) : Number.NaN;
  return {
    ...d,
    contexts: [...new Set(v1.contexts)],
    alertRules: { ...d.alertRules, holdDownMs: Math.round(v1.holdDownSeconds * 1000) },
    writeBack: Object.fromEntries((v1.writeBack ?? []).map((c) => [c, true])),
    crdGroup: v1.crdGroup ?? d.crdGroup,
    theme: v1.theme ?? d.theme,
    alertsPaused: { all: Number.isFinite(paused) ? { until: paused } : null, contexts: {} },
  };
}

/** Step from version N to N+1, with the schema the version-N document must satisfy. */
const STEPS: Record<number, (doc: unknown) => Record<string, unknown>> = {
  1: (doc) => {
    if (!Value.Check(SettingsV1, doc)) {
      const first = [...Value.Errors(SettingsV1, doc)][0];
      const field = first ? dotted(first.path) : '(root)';
      throw new SettingsError(
        `Invalid version 1 settings: ${field}: ${first ? errorText(first) : 'invalid'}.`,
        [field],
      );
    }
    return fromV1(doc);
  },
};

export type MigrationResult =
  | { ok: true; settings: Settings; from: number; changed: boolean }
  | { ok: false; reason: 'invalid' | 'newer'; message: string };

/** Brings a parsed settings file to the current version; never throws. */
export function migrate(raw: unknown): MigrationResult {
  if (!isObj(raw))
    return { ok: false, reason: 'invalid', message: 'the file does not hold a settings object' };
  const from = raw.version === undefined ? 1 : raw.version;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) {
    return { ok: false, reason: 'invalid', message: `unknown settings version ${JSON.stringify(from)}` };
  }
  if (from > SETTINGS_VERSION) {
    return { ok: false, reason: 'newer', message: `written by a newer GPU Fleet (settings version ${from})` };
  }
  try {
    let doc: Record<string, unknown> = raw;
    for (let v = from; v < SETTINGS_VERSION; v++) {
      const step = STEPS[v];
      if (step === undefined) throw new SettingsError(`no migration from settings version ${v}`, []);
      doc = step(doc);
    }
    // Fields added within this version get their defaults; rules are filled key by key.
    const d = defaultSettings();
    // A present but malformed value is kept as it is, so validation rejects it rather than hiding it.
    const rules = isObj(doc.alertRules)
      ? { ...d.alertRules, ...doc.alertRules }
      : (doc.alertRules ?? d.alertRules);
    const filled = { ...d, ...doc, alertRules: rules };
    const settings = assertSettings(filled);
    return { ok: true, settings, from, changed: from !== SETTINGS_VERSION || !Value.Equal(filled, raw) };
  } catch (e) {
    return { ok: false, reason: 'invalid', message: e instanceof Error ? e.message : String(e) };
  }
}
