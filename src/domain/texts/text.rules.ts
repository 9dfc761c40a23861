import { ValidationError } from '../errors.js';

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
    throw new ValidationError(`${field} must be at most ${max} characters`);
  }
  if (min > 0 && charCount(value) < min) {
    throw new ValidationError(
      min === 1 ? `${field} must not be empty` : `${field} must be at least ${min} characters`,
    );
  }
}

/** Text values are stored byte for byte: only the length is checked. */
export function checkTextValue(value: string, field = 'value'): void {
  if (typeof value !== 'string') throw new ValidationError(`${field} must be a string`);
  checkLength(value, field, TEXT_VALUE_MAX);
}
