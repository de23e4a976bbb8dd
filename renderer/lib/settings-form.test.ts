import { describe, expect, it } from 'vitest';
import { GPU_HOT_C_MAX, GPU_HOT_C_MIN, HOLD_DOWN_MS_MAX } from '../../common/alert-rules.ts';
import { translator } from '../../common/i18n/translator.ts';
import { CONTEXTS_MAX, SettingsPatchSchema } from '../../common/settings.ts';
import { check } from '../../common/validate.ts';
import { DEFAULT_SETTINGS } from '../fixtures/fake-fleet.ts';
import { draftFrom, patchFrom, type SettingsDraft, validate } from './settings-form.ts';

const draft = (over: Partial<SettingsDraft> = {}): SettingsDraft => ({
  ...draftFrom(DEFAULT_SETTINGS),
  ...over,
});

const en = translator('en');

describe('validate', () => {
  it('accepts the defaults', () => {
    expect(validate(draft(), en)).toEqual({});
  });
  it.each<[Partial<SettingsDraft>, string]>([
    [{ holdDownSec: '' }, 'holdDownSec'],
    [{ holdDownSec: '2.5' }, 'holdDownSec'],
    [{ holdDownSec: '-1' }, 'holdDownSec'],
    [{ holdDownSec: '3601' }, 'holdDownSec'],
    [{ unreachableSec: 'soon' }, 'unreachableSec'],
    [{ unreachableSec: '86401' }, 'unreachableSec'],
    [{ crdGroup: 'Not A Group' }, 'crdGroup'],
    [{ crdGroup: 'nodots' }, 'crdGroup'],
    [{ configMapNamespace: 'Kube_System' }, 'configMapNamespace'],
    [{ configMapNamespace: '' }, 'configMapNamespace'],
  ])('%o is rejected on %s', (over, field) => {
    expect(Object.keys(validate(draft(over), en))).toEqual([field]);
  });
});

it('round-trips settings through a draft into a patch', () => {
  // Take-over is not a form field (the window turns it on from a conflict, with a confirm): a save leaves it.
  const { writeBackTakeOver: _takeOver, ...formFields } = DEFAULT_SETTINGS;
  expect(patchFrom(draftFrom(DEFAULT_SETTINGS))).toEqual(formFields);
  expect(
    patchFrom(draftFrom({ ...DEFAULT_SETTINGS, writeBackTakeOver: { homelab: true } })),
  ).not.toHaveProperty('writeBackTakeOver');
  expect(patchFrom(draft({ holdDownSec: ' 45 ' })).alertRules?.holdDownMs).toBe(45_000);
});

it('checks the timeline fields: whole days and megabytes, an optional price, a short currency', () => {
  const d = {
    ...draftFrom(DEFAULT_SETTINGS),
    retentionDays: '0',
    maxMB: '12.5',
    pricePerKwh: 'cheap',
    currency: 'EURO-DOLLAR',
  };
  expect(validate(d, translator('en'))).toEqual({
    retentionDays: 'Enter a whole number from 1 to 365.',
    maxMB: 'Enter a whole number from 16 to 100,000.',
    pricePerKwh: 'Enter a price from 0 to 1,000, or leave it empty.',
    currency: 'At most 8 characters.',
  });
  const ok = { ...d, retentionDays: '7', maxMB: '64', pricePerKwh: '0.31', currency: 'EUR' };
  expect(validate(ok, translator('en'))).toEqual({});
  expect(patchFrom(ok).timeline).toEqual({ retentionDays: 7, maxMB: 64, pricePerKwh: 0.31, currency: 'EUR' });
  expect(patchFrom({ ...ok, pricePerKwh: ' ' }).timeline?.pricePerKwh).toBeNull();
});

describe('validate words what the settings schema refuses', () => {
  it('takes its limits from the schema: the most seconds are its maximum in ms / 1000', () => {
    expect(validate(draft({ holdDownSec: String(HOLD_DOWN_MS_MAX / 1000) }), en)).toEqual({});
    expect(validate(draft({ holdDownSec: String(HOLD_DOWN_MS_MAX / 1000 + 1) }), en)).toEqual({
      holdDownSec: 'Hold-down can be at most 3,600 seconds.',
    });
    expect(validate(draft({ gpuHotC: String(GPU_HOT_C_MAX + 1) }), en).gpuHotC).toBe(
      `The GPU temperature limit must be a whole number of °C from ${GPU_HOT_C_MIN} to ${GPU_HOT_C_MAX}.`,
    );
  });

  it('names the context whose controller namespace is wrong, as written (a slash and a tilde too)', () => {
    const d = draft({ controllerNamespace: { 'team/a~b': 'Ops Team', lab: 'ops' } });
    expect(validate(d, en)).toEqual({
      controllerNamespace: en.t('settings.errors.controllerNamespace', { context: 'team/a~b' }),
    });
    // An emptied field is the default namespace again, not an error.
    expect(validate(draft({ controllerNamespace: { lab: '  ' } }), en)).toEqual({});
  });

  it('says in the window’s language when there are more contexts than can be monitored', () => {
    const monitored = Array.from({ length: CONTEXTS_MAX + 1 }, (_, i) => `c${i}`);
    const ko = translator('ko');
    expect(validate(draft({ monitored }), ko)).toEqual({
      monitored: ko.t('settings.errors.monitoredMax', { max: CONTEXTS_MAX }),
    });
    // A name longer than any context's is no count problem: the general sentence says it.
    expect(validate(draft({ monitored: ['x'.repeat(254)] }), ko)).toEqual({
      other: ko.t('settings.errors.other'),
    });
    expect(ko.t('settings.errors.monitoredMax', { max: CONTEXTS_MAX })).not.toBe(
      en.t('settings.errors.monitoredMax', { max: CONTEXTS_MAX }),
    );
  });

  it('a draft it accepts makes a patch the IPC door takes, and one it refuses one the door refuses', () => {
    const drafts: Partial<SettingsDraft>[] = [
      {},
      { holdDownSec: '2.5' },
      { unreachableSec: '86401' },
      { pricePerKwh: '0.1234567' },
      { pricePerKwh: '1000.5' },
      { currency: 'EUR\u0007' },
      { budgetPerMinute: '0' },
      { crdGroup: 'gpu.example.com' },
      { configMapNamespace: 'a'.repeat(64) },
    ];
    for (const over of drafts) {
      const ok = Object.keys(validate(draft(over), en)).length === 0;
      expect(check(SettingsPatchSchema, patchFrom(draft(over))).ok, JSON.stringify(over)).toBe(ok);
    }
  });
});
