/**
 * Text from stored data made safe to print on a terminal: control and format characters (ESC
 * would start a terminal escape sequence, a tab or newline would break a tab-separated line, a
 * bidirectional override would reorder what follows) are written as `\u{1b}`. Names created now
 * cannot hold them, but data stored by older versions may.
 */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
