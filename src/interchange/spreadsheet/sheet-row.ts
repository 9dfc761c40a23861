/**
 * A row of a spreadsheet as the import's readers yield it: its number as the spreadsheet shows it
 * (1 is the header row) and its cells' texts, the first cell first (column A). A cell that could
 * not be read (bytes that are not UTF-8) is named in `problem`, so that the import can skip the
 * row or fail.
 */
export interface SheetRow {
  row: number;
  cells: string[];
  problem?: { column: number; message: string };
}

/**
 * A copy of a cell's text that holds nothing else: a reader may hand a cell over as a slice of its
 * chunk of the file (csv-reader.ts), which V8 keeps whole while the slice lives. What the import
 * keeps beyond its batch (the file's keys, the skipped rows' report) is copied, or it would hold
 * every chunk of the file. UTF-16 bytes carry any string exactly, lone surrogates included.
 */
export function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
