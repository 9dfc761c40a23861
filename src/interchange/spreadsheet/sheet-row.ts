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
