import { ValidationError } from '../errors.js';
import { checkLength, normalizeLanguageValues } from '../texts/text.rules.js';
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

export function checkFunit(funit: string | null | undefined, field = 'funit'): void {
  if (funit === undefined || funit === null) return;
  if (typeof funit !== 'string') throw new ValidationError(`${field} must be a string or null`);
  checkLength(funit, field, FUNIT_MAX);
}

/**
 * Validates `values` of SetFeatureValuesRequest and returns them with normalised
 * languages; a language named twice (also as ger and deu) is refused.
 */
export function normalizeFeatureValues(values: unknown): TextEntry[] {
  return normalizeLanguageValues(values, 'values');
}
