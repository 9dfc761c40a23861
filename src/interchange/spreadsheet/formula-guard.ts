/**
 * CSV injection: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and some with a
 * TAB or CR before them) as a formula. The export writes such a value with one leading `'`, which
 * every spreadsheet shows as text; the import takes exactly that `'` off again. A value that
 * itself begins with `'` gets one more, so that every value reads back as it was written.
 */
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', "'"]);

/** The value as the export writes it into a cell. */
export function neutralise(value: string): string {
  return value.length > 0 && TRIGGERS.has(value[0]!) ? `'${value}` : value;
}

/** The value an imported cell stands for: one leading `'` removed when the rest begins with a trigger. */
export function restore(cell: string): string {
  return cell.length > 1 && cell[0] === "'" && TRIGGERS.has(cell[1]!) ? cell.slice(1) : cell;
}
