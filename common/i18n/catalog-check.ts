/**
 * The completeness check of a translation against English: the same keys, exactly the plural forms the
 * language's Intl.PluralRules uses, and no placeholder English does not have (a typo would print
 * "{{contxt}}"). Pure; catalogs.test.ts runs it on every catalog.
 */
import type { Locale } from './locales.ts';
import { CATALOGS } from './translator.ts';

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Dotted leaf paths with their values. */
function flatten(obj: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    if (v !== null && typeof v === 'object')
      for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

/** Base key → plural forms present (empty set for a key without forms). */
function bases(flat: Map<string, unknown>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of flat.keys()) {
    const m = PLURAL.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    const forms = out.get(base) ?? new Set<string>();
    if (m?.[1]) forms.add(m[1]);
    out.set(base, forms);
  }
  return out;
}

const placeholders = (s: string) =>
  new Set([...s.matchAll(/\{\{\s*([^,}\s]+)[^}]*\}\}/g)].map((m) => m[1] as string));

const english = flatten(CATALOGS.en);
const englishBases = bases(english);

/** Problems of one catalog against English, as sentences (empty when complete). */
export function catalogProblems(locale: Locale, catalog: object): string[] {
  const flat = flatten(catalog);
  const own = bases(flat);
  const categories = new Set<string>(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
  const problems: string[] = [];
  for (const [base, enForms] of englishBases) {
    const forms = own.get(base);
    if (!forms) {
      problems.push(`${locale}: missing ${base}`);
      continue;
    }
    if (enForms.size > 0) {
      const want = [...categories].sort().join(',');
      const got = [...forms].sort().join(',');
      if (want !== got)
        problems.push(`${locale}: ${base} has plural forms [${got}], ${locale} needs [${want}]`);
    } else if (forms.size > 0) problems.push(`${locale}: ${base} has plural forms English does not`);
  }
  for (const base of own.keys())
    if (!englishBases.has(base)) problems.push(`${locale}: ${base} is not in English`);
  for (const [key, value] of flat) {
    const base = key.replace(PLURAL, '');
    if (typeof value !== 'string') {
      problems.push(`${locale}: ${key} is not a string`);
      continue;
    }
    if (value.trim() === '' && !/Separator$/.test(base)) problems.push(`${locale}: ${key} is empty`);
    const enVars = new Set<string>();
    for (const [k, v] of english)
      if (k.replace(PLURAL, '') === base) for (const p of placeholders(String(v))) enVars.add(p);
    const vars = placeholders(value);
    for (const p of vars)
      if (!enVars.has(p)) problems.push(`${locale}: ${key} uses {{${p}}}, English has no such value`);
    for (const p of enVars)
      if (p !== 'count' && !vars.has(p)) problems.push(`${locale}: ${key} drops {{${p}}}`);
  }
  return problems;
}
