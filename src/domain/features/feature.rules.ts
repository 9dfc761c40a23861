import { ValidationError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import { checkLength, checkTextValue } from '../texts/text.rules.js';
import type { TextEntry } from '../texts/text.repository.js';

export const FTIDREF_MAX = 256;
export const FUNIT_MAX = 128;
/** Values in one request: one per language, and ISO 639-2 has fewer than 500 languages. */
export const FEATURE_VALUES_MAX = 500;
export const FEATURE_NAME_MAX = 1000;

export function checkFtidref(ftidref: string, field = 'ftidref'): void {
  if (typeof ftidref !== 'string') throw new ValidationError(`${field} must be a string`);
  checkLength(ftidref, field, FTIDREF_MAX, 1);
}

export function checkFunit(funit: string | null | undefined): void {
  if (funit === undefined || funit === null) return;
  if (typeof funit !== 'string') throw new ValidationError('funit must be a string or null');
  checkLength(funit, 'funit', FUNIT_MAX);
}

/**
 * Validates `values` of SetFeatureValuesRequest and returns them with normalised
 * languages; a language named twice (also as ger and deu) is refused.
 */
export function normalizeFeatureValues(values: unknown): TextEntry[] {
  if (!Array.isArray(values)) throw new ValidationError('values must be an array');
  const seen = new Set<string>();
  return values.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null)
      throw new ValidationError(`values[${i}] must be an object`);
    const { lang, value } = entry as { lang?: unknown; value?: unknown };
    if (typeof lang !== 'string')
      throw new ValidationError(`values[${i}].lang is required and must be a string`);
    if (typeof value !== 'string')
      throw new ValidationError(`values[${i}].value is required and must be a string`);
    const normalized = normalizeLanguage(lang, `values[${i}].lang`);
    if (seen.has(normalized)) throw new ValidationError(`values names language ${normalized} more than once`);
    seen.add(normalized);
    checkTextValue(value, `values[${i}].value`);
    return { lang: normalized, value };
  });
}
