import { ValidationError } from '../errors.js';
import { checkFtidref, checkFunit } from '../features/feature.rules.js';
import { normalizeLanguage } from '../languages/language.js';
import { checkLength, TEXT_VALUE_MAX } from '../texts/text.rules.js';
import type { TextEntry } from '../texts/text.repository.js';
import { FRAGMENT_PLACE_MAX, KEYWORD_MAX, MEDIA_SOURCE_MAX, MODEL_FIELD_MAX } from './product-model.rules.js';
import type {
  FeatureDetailsValue,
  FeatureOccurrenceValue,
  Fragment,
  Media,
} from './product-model.schemas.js';

/**
 * Checks of the product model's parts before anything is written, and their stored form: lists
 * per language are ordered by language (byte order, as the databases sort), and a language's
 * entries keep the order they came in, so that a sheet read back equals the sheet written.
 */

const byLang = (a: TextEntry, b: TextEntry) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0);

/**
 * Entries with normalised languages, ordered by language (stable); a language may appear several
 * times. Each value is a string of `min` to `max` characters.
 */
export function normalizeEntryList(
  entries: readonly TextEntry[],
  field: string,
  max = TEXT_VALUE_MAX,
  min = 0,
) {
  return entries
    .map(({ lang, value }, i) => {
      if (typeof value !== 'string') throw new ValidationError(`${field}[${i}].value must be a string`);
      checkLength(value, `${field}[${i}].value`, max, min);
      return { lang: normalizeLanguage(lang, `${field}[${i}].lang`), value };
    })
    .sort(byLang);
}

const optionalField = (value: string | null, field: string) => {
  if (value !== null) checkLength(value, field, MODEL_FIELD_MAX);
  return value;
};

/** The stored JSON text of an occurrence's details, keys in FeatureDetails' order; null stays null. */
export function detailsJson(details: FeatureDetailsValue | null | undefined, field: string): string | null {
  if (details === undefined || details === null) return null;
  details.valueIdrefs.forEach((ref, i) => checkLength(ref, `${field}.valueIdrefs[${i}]`, MODEL_FIELD_MAX, 1));
  return JSON.stringify({
    valueIdrefs: details.valueIdrefs,
    valueDetails: normalizeEntryList(details.valueDetails, `${field}.valueDetails`),
    fid: optionalField(details.fid, `${field}.fid`),
    fparentId: optionalField(details.fparentId, `${field}.fparentId`),
    referenceSystem: optionalField(details.referenceSystem, `${field}.referenceSystem`),
    referenceGroupId: optionalField(details.referenceGroupId, `${field}.referenceGroupId`),
  });
}

export interface CheckedOccurrence {
  ftidref: string;
  funit: string | null;
  values: TextEntry[];
  detailsJson: string | null;
}

/** `name`: what the caller's input calls the list (the sheet's PUT: features), for the sentences. */
export function checkOccurrences(
  occurrences: readonly FeatureOccurrenceValue[],
  name = 'allFeatures',
): CheckedOccurrence[] {
  return occurrences.map((o, i) => {
    const field = `${name}[${i}]`;
    checkFtidref(o.ftidref, `${field}.ftidref`);
    checkFunit(o.funit, `${field}.funit`);
    return {
      ftidref: o.ftidref,
      funit: o.funit ?? null,
      values: normalizeEntryList(o.values, `${field}.values`),
      detailsJson: detailsJson(o.details, `${field}.details`),
    };
  });
}

export function checkKeywords(keywords: readonly TextEntry[]): TextEntry[] {
  return normalizeEntryList(keywords, 'keywords', KEYWORD_MAX, 1);
}

export function checkMedia(media: readonly Media[]) {
  return media.map((m, i) => {
    checkLength(m.source, `media[${i}].source`, MEDIA_SOURCE_MAX, 1);
    if (m.order !== null && !Number.isInteger(m.order)) {
      throw new ValidationError(`media[${i}].order must be an integer or null`);
    }
    return {
      type: optionalField(m.type, `media[${i}].type`),
      source: m.source,
      descriptionsJson: JSON.stringify(normalizeEntryList(m.descriptions, `media[${i}].descriptions`)),
      purpose: optionalField(m.purpose, `media[${i}].purpose`),
      order: m.order,
    };
  });
}

export function checkFragments(fragments: readonly Fragment[]): Fragment[] {
  return fragments.map(({ place, xml }, i) => {
    checkLength(place, `fragments[${i}].place`, FRAGMENT_PLACE_MAX, 1);
    checkLength(xml, `fragments[${i}].xml`, TEXT_VALUE_MAX, 1);
    return { place, xml };
  });
}

export function checkGroupIds(groupIds: readonly number[]): number[] {
  const seen = new Set<number>();
  groupIds.forEach((id, i) => {
    if (seen.has(id)) throw new ValidationError(`groupIds[${i}] names group ${id} a second time`);
    seen.add(id);
  });
  return [...groupIds];
}
