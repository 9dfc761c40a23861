import { ValidationError } from '../../domain/errors.js';

/**
 * A spreadsheet that cannot be imported as it is, with its place: the row (1 is the header) and
 * the column (1-based; its letter and header name are in the message). `line` and `column` are
 * the names the job's error takes them by (JobError), as a BMEcat import's.
 */
export class SpreadsheetError extends ValidationError {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message, 'SPREADSHEET_INVALID');
  }
}

/** A column's letters as a spreadsheet shows them: 1 → A, 27 → AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A column's number from its letters (the reference of an XLSX cell, `BC12` → 55). */
export function columnNumber(reference: string): number {
  let n = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n;
}

/** "row 7, column C (short[deu])": a cell named the way the user finds it in the spreadsheet. */
export function place(row: number, column: number, name?: string): string {
  return `row ${row}, column ${columnLetters(column)}${name ? ` (${name})` : ''}`;
}
