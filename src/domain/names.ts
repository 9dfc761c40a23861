import { ValidationError } from './errors.js';

/**
 * Names of products and groups: a name that is empty or only white space names nothing, and is
 * refused alike everywhere, with the same sentence (REST's schemas say it through `pattern`).
 */
export const BLANK_NAME_PATTERN = '\\S';

export function blankNameMessage(field = 'name'): string {
  return `${field} must not be empty or only white space`;
}

export function checkNotBlank(value: string, field = 'name'): void {
  if (!new RegExp(BLANK_NAME_PATTERN, 'u').test(value)) throw new ValidationError(blankNameMessage(field));
}
