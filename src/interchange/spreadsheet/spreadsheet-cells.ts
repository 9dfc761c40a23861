/**
 * Formula neutralisation (CSV injection): a spreadsheet program runs a CSV cell that begins with
 * `=`, `+`, `-` or `@` as a formula, and some treat TAB and CR as such a start too. The export
 * writes such a value with one `'` before it, which every spreadsheet program shows as text; a
 * value that begins with `'` followed by such a start gets one more `'`, so that the import, which
 * removes exactly one leading `'` where the rest begins with `=`, `+`, `-`, `@`, TAB, CR or `'`,
 * gives back every value byte for byte (docs/spreadsheets.md).
 */
const FORMULA_START = /^[=+\-@\t\r']/;

/** The cell text a value is written as in a CSV file. */
export function neutralised(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** The value a neutralised cell holds (the import's side of `neutralised`). */
export function restored(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
