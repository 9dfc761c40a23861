import { neutralised } from './spreadsheet-cells.js';

/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field holding `"`,
 * `,`, CR or LF quoted with its quotes doubled. Values are neutralised against formulas first
 * (spreadsheet-cells.ts). UTF-8; the byte-order mark Excel needs to read UTF-8 is the caller's.
 */

export const CSV_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string): string {
  const cell = neutralised(value);
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** Runs of commas by length, made once: an export's row is mostly empty cells (1,230 columns, some 40 filled). */
const commaRuns: string[] = [''];
function commas(count: number): string {
  while (commaRuns.length <= count) commaRuns.push(`${commaRuns[commaRuns.length - 1]!},`);
  return commaRuns[count]!;
}

/** One record with its CRLF; null and undefined are empty fields. */
export function csvRecord(values: readonly (string | null | undefined)[]): string {
  let line = '';
  // Separators not yet written: those before a filled cell go with it, one run of commas.
  let pending = 0;
  for (let i = 0; i < values.length; i++) {
    if (i > 0) pending++;
    const value = values[i];
    if (value === null || value === undefined || value === '') continue;
    line += commas(pending) + csvField(value);
    pending = 0;
  }
  return `${line}${commas(pending)}\r\n`;
}
