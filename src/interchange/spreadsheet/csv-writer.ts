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

/** One record with its CRLF; null and undefined are empty fields. */
export function csvRecord(values: readonly (string | null | undefined)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    const value = values[i];
    if (value !== null && value !== undefined && value !== '') line += csvField(value);
  }
  return `${line}\r\n`;
}
