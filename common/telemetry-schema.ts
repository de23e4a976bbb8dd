/** The `telemetry` setting as a schema, for the settings file and the window's settings patch. */
import { Type } from '@sinclair/typebox';
import { TELEMETRY_LIMITS } from './telemetry.ts';

export const TelemetrySettingsSchema = Type.Object(
  {
    background: Type.Union([Type.Literal('auto'), Type.Literal('on'), Type.Literal('off')]),
    autoMaxGpuNodes: Type.Integer({
      minimum: TELEMETRY_LIMITS.autoMaxGpuNodes.min,
      maximum: TELEMETRY_LIMITS.autoMaxGpuNodes.max,
    }),
    budgetPerMinute: Type.Integer({
      minimum: TELEMETRY_LIMITS.budgetPerMinute.min,
      maximum: TELEMETRY_LIMITS.budgetPerMinute.max,
    }),
  },
  { additionalProperties: false },
);
