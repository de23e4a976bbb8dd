/** The `timeline` setting as a schema, for the settings file and the window's settings patch. */
import { Type } from '@sinclair/typebox';
import { TIMELINE_LIMITS } from './timeline.ts';

const L = TIMELINE_LIMITS;

export const TimelineSettingsSchema = Type.Object(
  {
    retentionDays: Type.Integer({ minimum: L.retentionDays.min, maximum: L.retentionDays.max }),
    maxMB: Type.Integer({ minimum: L.maxMB.min, maximum: L.maxMB.max }),
    pricePerKwh: Type.Union([
      Type.Number({ minimum: L.pricePerKwh.min, maximum: L.pricePerKwh.max }),
      Type.Null(),
    ]),
    currency: Type.String({ maxLength: L.currencyMax, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' }),
  },
  { additionalProperties: false },
);
