import { describe, expect, it } from 'vitest';
import { translator } from '../../common/i18n/translator.ts';
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
