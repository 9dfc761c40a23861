import { atField, ValidationError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import type { TextEntry } from './text.repository.js';

/** Longest text or feature value, in characters (Unicode code points, as JSON Schema counts them). */
export const TEXT_VALUE_MAX = 1_000_000;

/** Number of Unicode code points; a surrogate pair counts once. */
export function charCount(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Throws when a string is longer than `max` characters (the caller names the field). */
export function checkLength(value: string, field: string, max: number, min = 0): void {
  if (value.length > max * 2 || charCount(value) > max) {
    throw atField(new ValidationError(`${field} must be at most ${max} characters`), field);
  }
  if (min > 0 && charCount(value) < min) {
    throw atField(
      new ValidationError(
        min === 1 ? `${field} must not be empty` : `${field} must be at least ${min} characters`,
      ),
      field,
    );
  }
}

/** Text values are stored byte for byte: only the length is checked. */
export function checkTextValue(value: string, field = 'value'): void {
  if (typeof value !== 'string') throw new ValidationError(`${field} must be a string`);
  checkLength(value, field, TEXT_VALUE_MAX);
}

/**
 * Validates a list of values per language (`[{lang, value}]`) and returns it with normalised
 * languages; a language named twice (also as ger and deu) is refused.
 */
export function normalizeLanguageValues(values: unknown, field: string): TextEntry[] {
  if (!Array.isArray(values)) throw new ValidationError(`${field} must be an array`);
  const seen = new Set<string>();
  return values.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null)
      throw new ValidationError(`${field}[${i}] must be an object`);
    const { lang, value } = entry as { lang?: unknown; value?: unknown };
    if (typeof lang !== 'string')
      throw new ValidationError(`${field}[${i}].lang is required and must be a string`);
    if (typeof value !== 'string')
      throw new ValidationError(`${field}[${i}].value is required and must be a string`);
    const normalized = normalizeLanguage(lang, `${field}[${i}].lang`);
    if (seen.has(normalized)) {
      const error = new ValidationError(`${field} names language ${normalized} more than once`);
      throw atField(error, `${field}[${i}].lang`);
    }
    seen.add(normalized);
    checkTextValue(value, `${field}[${i}].value`);
    return { lang: normalized, value };
  });
}
