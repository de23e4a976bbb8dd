/**
 * The types that make message keys checked at compile time: the English catalog is the source of
 * truth; every key of it (plural suffixes stripped) is a MessageKey, and the other catalogs must have
 * the same shape (their plural forms are the ones their language's Intl.PluralRules uses).
 */
import type { en } from './catalogs/en.ts';

/** The CLDR plural categories i18next appends to a key (`nodes_one`, `nodes_other`). */
export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];

type StripPlural<K extends string> = K extends `${infer B}_${PluralCategory}` ? B : K;

/** Every message the UI can ask for, as a dotted path: 'tabs.nodes', 'alert.drop.title'. */
export type MessageKey = StripPlural<Paths<typeof en>>;

type OptionalPlural = `${string}_${Exclude<PluralCategory, 'other'>}`;

/**
 * A translation of the English catalog: every key present, values any string. Plural forms other than
 * `_other` are optional (Chinese, Korean and Japanese have only `other`); the catalog test checks that
 * each language has exactly the forms its plural rules use.
 */
export type CatalogShape<T> = {
  [K in keyof T as K extends OptionalPlural ? never : K]: T[K] extends string ? string : CatalogShape<T[K]>;
} & {
  [K in keyof T as K extends OptionalPlural ? K : never]?: string;
};

export type Catalog = CatalogShape<typeof en>;

/** Values a message interpolates: `{{context}}`, `{{count, number}}`; `count` also picks the plural form. */
export type MessageVars = Readonly<Record<string, string | number>>;
