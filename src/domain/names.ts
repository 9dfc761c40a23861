import { ValidationError } from './errors.js';

/**
 * Names and identifiers (product names, supplierPids, group names, workspace names) must show
 * something: one that is empty or made only of characters that show nothing on their own names
 * nothing a person could read or type, and two such names look alike. Those characters are white
 * space (Unicode's White_Space: U+0085 and the line separators included), controls (Cc), format
 * characters (Cf: the zero-width space, bidirectional marks, the BOM), default-ignorable code
 * points (variation selectors, Hangul fillers, tag characters) and the Braille blank U+2800.
 * They are refused only when nothing else is there: inside a visible name every character is
 * stored as sent, as text values are. REST's schemas say it through `pattern` (Ajv compiles
 * patterns with the `u` flag); `checkNotBlank` says it for the other adapters.
 */
export const BLANK_NAME_PATTERN = '[^\\p{White_Space}\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800]';

const VISIBLE = new RegExp(BLANK_NAME_PATTERN, 'u');

/** What the rule says, for the API description of each field it applies to. */
export const NOT_BLANK_RULE = 'not empty, nor only white space or invisible characters';

export function blankNameMessage(field = 'name'): string {
  return `${field} must not be empty or only white space or invisible characters`;
}

export function checkNotBlank(value: string, field = 'name'): void {
  if (!VISIBLE.test(value)) throw new ValidationError(blankNameMessage(field));
}
