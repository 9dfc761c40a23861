import type { FeatureOccurrence, ProductSheet, TextEntry } from '../../catalogue-types.js';

/**
 * The editor's form: what it shows of a product sheet, and back. Texts by language (a tab each,
 * short and long together); features in their order with every value kept, so that a value the
 * form does not show (a second one of a language, an occurrence's details) survives a save.
 */

export const FIELD_KEYS = ['supplierPid', 'supplierIdRef', 'ean', 'manufacturerPid'] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

/** The language of values without one (numbers, codes): ISO 639-2's "no linguistic content". */
export const NEUTRAL = 'zxx';

export interface Draft {
  fields: Record<FieldKey, string>;
  /** The languages of the text tabs, in their order. */
  languages: string[];
  shortTexts: Record<string, string>;
  longTexts: Record<string, string>;
  features: FeatureOccurrence[];
  /** The product's (first) group, picked from the tree's groups; null: none. */
  group: { id: number; name: string } | null;
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function emptyDraft(language: string): Draft {
  return {
    fields: { supplierPid: '', supplierIdRef: '', ean: '', manufacturerPid: '' },
    languages: [language],
    shortTexts: {},
    longTexts: {},
    features: [],
    group: null,
  };
}

export function draftOf(sheet: ProductSheet): Draft {
  const languages = [...new Set([...sheet.shortTexts, ...sheet.longTexts].map((t) => t.lang))].sort(byCode);
  const texts = (entries: TextEntry[]) => Object.fromEntries(entries.map((t) => [t.lang, t.value]));
  return {
    fields: {
      supplierPid: sheet.product.supplierPid,
      supplierIdRef: sheet.product.supplierIdRef ?? '',
      ean: sheet.product.ean ?? '',
      manufacturerPid: sheet.product.manufacturerPid ?? '',
    },
    languages,
    shortTexts: texts(sheet.shortTexts),
    longTexts: texts(sheet.longTexts),
    features: sheet.features,
    group: sheet.group ? { id: sheet.group.id, name: sheet.group.name } : null,
  };
}

/** A language's text of one kind, as sent: an empty text is no text (the entry is left out). */
function textsOf(draft: Draft, kind: 'shortTexts' | 'longTexts'): TextEntry[] {
  return draft.languages
    .filter((lang) => (draft[kind][lang] ?? '') !== '')
    .map((lang) => ({ lang, value: draft[kind][lang]! }));
}

const orNull = (value: string) => (value === '' ? null : value);

/** The sheet a save sends: the loaded sheet with the form's parts replaced (the rest as loaded). */
export function sheetOf(loaded: ProductSheet, draft: Draft): ProductSheet {
  return {
    ...loaded,
    product: {
      ...loaded.product,
      supplierPid: draft.fields.supplierPid,
      supplierIdRef: orNull(draft.fields.supplierIdRef),
      ean: orNull(draft.fields.ean),
      manufacturerPid: orNull(draft.fields.manufacturerPid),
    },
    shortTexts: textsOf(draft, 'shortTexts'),
    longTexts: textsOf(draft, 'longTexts'),
    features: draft.features,
    ...groupsOf(loaded, draft),
  };
}

/**
 * The sheet's groups after the pick: the picked group first, then the other groups a catalogue
 * gave the product; `group` is left out (the first of `groups` is the group).
 */
function groupsOf(loaded: ProductSheet, draft: Draft): { group?: undefined; groups?: unknown[] } {
  if ((loaded.group?.id ?? null) === (draft.group?.id ?? null)) return {};
  const all = (loaded.groups ?? []) as { id: number }[];
  const others = all.filter((g) => g.id !== loaded.group?.id && g.id !== draft.group?.id);
  return { group: undefined, groups: draft.group ? [{ id: draft.group.id }, ...others] : others };
}

/** The document a new product is created from (POST /ui/api/products). */
export function createDocumentOf(draft: Draft): Record<string, unknown> {
  const fields = Object.fromEntries(
    FIELD_KEYS.filter((k) => draft.fields[k] !== '').map((k) => [k, draft.fields[k]]),
  );
  return {
    supplierPid: draft.fields.supplierPid,
    ...fields,
    shortTexts: textsOf(draft, 'shortTexts'),
    longTexts: textsOf(draft, 'longTexts'),
    allFeatures: draft.features.map(({ ftidref, funit, values }) => ({ ftidref, funit, values })),
    ...(draft.group ? { groupId: draft.group.id } : {}),
  };
}

/** The value columns of the feature table: the languages of values, of the texts, and zxx. */
export function featureLanguages(draft: Draft): string[] {
  const langs = new Set([NEUTRAL, ...draft.languages]);
  for (const f of draft.features) for (const v of f.values) langs.add(v.lang);
  return [...langs].sort(byCode);
}

/** The first value of a language (the one the table shows); '' when there is none. */
export function valueOf(feature: FeatureOccurrence, lang: string): string {
  return feature.values.find((v) => v.lang === lang)?.value ?? '';
}

/**
 * Sets the shown value of a language: replaces the first of that language, adds one, or (empty)
 * removes it; the others stay as they are. Values stay ordered by language, as the server keeps them.
 */
export function withValue(feature: FeatureOccurrence, lang: string, value: string): FeatureOccurrence {
  const at = feature.values.findIndex((v) => v.lang === lang);
  const values = [...feature.values];
  if (at >= 0 && value === '') values.splice(at, 1);
  else if (at >= 0) values[at] = { lang, value };
  else if (value !== '') values.push({ lang, value });
  values.sort((a, b) => byCode(a.lang, b.lang));
  return { ...feature, values };
}

/**
 * Where the form shows a refusal: the server names the input in the body it was sent
 * (`sheet.shortTexts.1.value`, `allFeatures.0.values.2.value`); the form's key says which field
 * (`short.eng`, `feature.0.eng`, `supplierPid`). Undefined when no field of the form shows it.
 */
export function fieldKeyOf(
  path: string | undefined,
  sent: ProductSheet | Record<string, unknown>,
): string | undefined {
  if (path === undefined) return undefined;
  const parts = path
    .replace(/^sheet\./, '')
    .replace(/^product\./, '')
    .split('.');
  const [head, index, sub, subIndex] = parts;
  if ((FIELD_KEYS as readonly string[]).includes(head!)) return head;
  const list = (name: string) => (sent as Record<string, unknown>)[name] as TextEntry[] | undefined;
  if (head === 'shortTexts' || head === 'longTexts') {
    const lang = list(head)?.[Number(index)]?.lang;
    return lang === undefined ? undefined : `${head === 'shortTexts' ? 'short' : 'long'}.${lang}`;
  }
  if (head === 'features' || head === 'allFeatures') {
    const feature = (list(head) as unknown as FeatureOccurrence[] | undefined)?.[Number(index)];
    if (!feature) return undefined;
    if (sub === 'values') {
      const lang = feature.values[Number(subIndex)]?.lang;
      return lang === undefined ? `feature.${index}.ftidref` : `feature.${index}.${lang}`;
    }
    return `feature.${index}.${sub === 'funit' ? 'funit' : 'ftidref'}`;
  }
  return undefined;
}
