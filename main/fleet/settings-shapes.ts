/**
 * Compile-time only: the settings schema restates the alert log and snooze shapes owned by alerts/, a layer
 * above settings/, so the check that they match lives here, where both may be imported. Nothing imports
 * this file; `tsc` fails on it if the shapes drift apart.
 */
import type { Static } from '@sinclair/typebox';
import type { SnoozeState } from '../alerts/snooze.ts';
import type { PolicyAlert } from '../alerts/types.ts';
import type { LoggedAlert, Same, SnoozeSchema } from '../settings/schema.ts';

const alertsMatch: Same<Static<typeof LoggedAlert>, PolicyAlert> = true;
const snoozeMatch: Same<Static<typeof SnoozeSchema>, SnoozeState> = true;
void [alertsMatch, snoozeMatch];
