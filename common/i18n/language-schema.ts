/** The `language` setting as a schema, for the settings file and the window's settings patch. */
import { Type } from '@sinclair/typebox';
import { LOCALES } from './locales.ts';

export const LanguageSettingSchema = Type.Union([
  Type.Literal('auto'),
  ...LOCALES.map((l) => Type.Literal(l)),
]);
