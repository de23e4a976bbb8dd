/** The view and the update derived from the one settings schema: what the window gets, and what its patch changes. */
import fs from 'node:fs';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  CONTEXTS_MAX,
  defaultSettings,
  type Settings,
  type SettingsPatch,
  SettingsPatchSchema,
  SettingsSchema,
  SettingsViewSchema,
} from '../../common/settings.ts';
import { check } from '../../common/validate.ts';
import { fromViewPatch, toSettingsView } from './settings-view.ts';

// A document with every field away from its default (written by the version before the one schema), with
// the fields added since (noFreeGpu, forwarding) filled as opening it fills them.
const old = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '../settings/fixtures/settings-v2-5766512.json'), 'utf8'),
) as Settings;
const written: Settings = { ...old, alertRules: { ...old.alertRules, noFreeGpu: false }, forwarding: [] };

describe('toSettingsView', () => {
  it.each([
    ['the defaults', defaultSettings()],
    ['a full document', written],
  ])('%s: the view schema holds it, with the document’s values and nothing the engine writes', (_n, doc) => {
    expect(Value.Check(SettingsSchema, doc)).toBe(true);
    const view = toSettingsView(Object.freeze(doc));
    expect(Value.Check(SettingsViewSchema, view)).toBe(true);
    expect(Object.keys(view).sort()).toEqual(Object.keys(SettingsViewSchema.properties).sort());
    expect(view.monitoredContexts).toEqual(doc.contexts);
    const { flapThreshold: _f, flapWindowMs: _w, ...shownRules } = doc.alertRules;
    expect(view.alertRules).toEqual(shownRules);
    expect(view.timeline).toEqual(doc.timeline);
    expect(view.controllerNamespace).toEqual(doc.controllerNamespace);
    // A copy: the window's changes never reach the stored (frozen) document.
    view.writeBack.other = true;
    expect(doc.writeBack).not.toHaveProperty('other');
  });
});

describe('fromViewPatch', () => {
  it('the view sent back as a patch changes nothing, and keeps the rules the window does not show', () => {
    const patch: SettingsPatch = toSettingsView(written);
    expect(check(SettingsPatchSchema, patch).ok).toBe(true);
    const update = fromViewPatch(patch, written);
    expect(Object.keys(update).every((k) => Object.hasOwn(SettingsSchema.properties, k))).toBe(true);
    expect({ ...written, ...update }).toEqual(written);
  });

  it('renames the monitored contexts and merges the rules it shows into the stored ones', () => {
    const current = {
      ...defaultSettings(),
      alertRules: { ...defaultSettings().alertRules, flapThreshold: 5 },
    };
    const rules = {
      holdDownMs: 0,
      unreachableAfterMs: 5000,
      withdrawnGpus: false,
      gpuHotC: 95,
      noFreeGpu: true,
    };
    expect(fromViewPatch({ monitoredContexts: ['lab'], alertRules: rules }, current)).toEqual({
      contexts: ['lab'],
      alertRules: { ...rules, flapThreshold: 5, flapWindowMs: current.alertRules.flapWindowMs },
    });
    expect(fromViewPatch({ theme: 'dark' }, current)).toEqual({ theme: 'dark' });
  });
});

describe('the patch schema: the door refuses what the file would', () => {
  const base = toSettingsView(defaultSettings());
  it.each<[string, SettingsPatch | Record<string, unknown>, boolean]>([
    ['every field at its limit', { ...base, alertRules: { ...base.alertRules, holdDownMs: 3600_000 } }, true],
    [
      'the most contexts',
      { monitoredContexts: Array.from({ length: CONTEXTS_MAX }, (_, i) => `c${i}`) },
      true,
    ],
    [
      'one context too many',
      { monitoredContexts: Array.from({ length: CONTEXTS_MAX + 1 }, (_, i) => `c${i}`) },
      false,
    ],
    ['a context twice', { monitoredContexts: ['lab', 'lab'] }, false],
    ['a hold-down over an hour', { alertRules: { ...base.alertRules, holdDownMs: 3600_001 } }, false],
    ['a flap rule the window does not have', { alertRules: { ...base.alertRules, flapThreshold: 3 } }, false],
    ['a field the engine writes', { alertLog: [] }, false],
    ['the file version', { version: 2 }, false],
    ['a namespace that is no DNS label', { controllerNamespace: { lab: 'Ops Team' } }, false],
    ['a context name of 253 characters', { writeBack: { ['x'.repeat(253)]: true } }, true],
    ['a context name longer than any', { writeBack: { ['x'.repeat(254)]: true } }, false],
    ['an empty context name', { freeGpus: { '': false } }, false],
    [
      'prototype keys as context names',
      JSON.parse('{"source":{"__proto__":"nodes","constructor":"auto"}}'),
      true,
    ],
  ])('%s', (_n, patch, ok) => {
    const door = check(SettingsPatchSchema, patch);
    expect(door.ok).toBe(ok);
    if (ok) {
      const doc = { ...defaultSettings(), ...fromViewPatch(patch as SettingsPatch, defaultSettings()) };
      expect(Value.Check(SettingsSchema, doc)).toBe(true);
    }
  });
});
