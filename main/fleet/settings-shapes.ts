/**
 * Compile-time only: the settings file's alert log and snooze schemas (common/alert-log-schema.ts) restate
 * shapes owned by alerts/, a layer above common/, so the check that they match lives here, where both may
 * be imported. Nothing imports this file; `tsc` fails on it if the shapes drift apart.
 */
import type { Static } from '@sinclair/typebox';
import type { LoggedAlert, Same, SnoozeSchema } from '../../common/alert-log-schema.ts';
import type { SnoozeState } from '../alerts/snooze.ts';
import type { PolicyAlert } from '../alerts/types.ts';

const alertsMatch: Same<Static<typeof LoggedAlert>, PolicyAlert> = true;
const snoozeMatch: Same<Static<typeof SnoozeSchema>, SnoozeState> = true;
void [alertsMatch, snoozeMatch];
