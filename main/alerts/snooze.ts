/**
 * Snoozing alerts, per context or for all, on a virtual clock.
 * "Until tomorrow" means 08:00 local time; the local offset is a function passed in so tests
 * pin the timezone (and its DST changes) instead of depending on the machine's.
 */

import type { SnoozeUntil } from '../../common/alerts.ts';
import { copyDict, dict, own, withKey, withoutKey } from '../../common/dict.ts';

/** `until` is epoch ms; null means "until resumed". */
export interface Snooze {
  until: number | null;
}

export interface SnoozeState {
  all: Snooze | null;
  contexts: Record<string, Snooze>;
}

/** Minutes to add to UTC to get local time at that instant (e.g. +60 for CET in winter). */
export type OffsetMinutes = (epochMs: number) => number;

/** The machine's own timezone; the default outside tests. */
export const systemOffset: OffsetMinutes = (ms) => -new Date(ms).getTimezoneOffset();

export const NO_SNOOZE: SnoozeState = Object.freeze({ all: null, contexts: Object.freeze(dict<Snooze>()) });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MORNING_HOUR = 8;
/** Before this local hour "tomorrow" still means this morning: at 01:00 nobody wants to wait 31 hours. */
const NIGHT_ENDS_HOUR = 4;

/** Epoch ms of the next "tomorrow 08:00" in local time. */
export function tomorrowMorning(now: number, offset: OffsetMinutes = systemOffset): number {
  const local = now + offset(now) * 60_000;
  const dayStart = Math.floor(local / DAY) * DAY;
  const hour = (local - dayStart) / HOUR;
  const targetLocal = dayStart + (hour < NIGHT_ENDS_HOUR ? 0 : DAY) + MORNING_HOUR * HOUR;
  // Convert back with the offset in force at the target, so a DST change overnight still lands on 08:00.
  const guess = targetLocal - offset(now) * 60_000;
  return targetLocal - offset(guess) * 60_000;
}

/** When a snooze chosen now ends (null: until resumed). */
export function snoozeEnd(
  until: SnoozeUntil,
  now: number,
  offset: OffsetMinutes = systemOffset,
): number | null {
  switch (until.kind) {
    case 'for':
      return now + Math.max(0, until.ms);
    case 'tomorrow':
      return tomorrowMorning(now, offset);
    case 'until-resumed':
      return null;
  }
}

/** Snooze one context (by name) or all of them (`scope` null). */
export function snooze(
  state: SnoozeState,
  scope: string | null,
  until: SnoozeUntil,
  now: number,
  offset: OffsetMinutes = systemOffset,
): SnoozeState {
  const entry: Snooze = { until: snoozeEnd(until, now, offset) };
  if (scope === null) return { all: entry, contexts: copyDict(state.contexts) };
  return { all: state.all, contexts: withKey(state.contexts, scope, entry) };
}

/** Resume one context, or everything (`scope` null clears the global snooze and every per-context one). */
export function resume(state: SnoozeState, scope: string | null): SnoozeState {
  if (scope === null) return { all: null, contexts: dict() };
  return { all: state.all, contexts: withoutKey(state.contexts, scope) };
}

const active = (s: Snooze | null | undefined, now: number): boolean =>
  s != null && (s.until === null || s.until > now);

/** A pause as the snapshot carries it: `'until resumed'`, the RFC 3339 end, or null when there is none. */
export function pausedUntil(s: Snooze | null | undefined): string | null {
  if (s == null) return null;
  return s.until === null ? 'until resumed' : new Date(s.until).toISOString();
}

export function isSnoozed(state: SnoozeState, context: string, now: number): boolean {
  return active(state.all, now) || active(own(state.contexts, context), now);
}

/** Drops snoozes that have ended, so the persisted state does not grow. */
export function pruneSnooze(state: SnoozeState, now: number): SnoozeState {
  const contexts = dict<Snooze>();
  for (const [name, s] of Object.entries(state.contexts)) if (active(s, now)) contexts[name] = s;
  return { all: active(state.all, now) ? state.all : null, contexts };
}
