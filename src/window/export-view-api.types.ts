import type { SelectionView } from './mass-edit-api.types.js';

/**
 * The JSON of File › Export view… (src/window/routes/export-view.routes.ts), shared with the front
 * end (src/ui imports these types only). The route checks at compile time that its schema fits.
 */

/** GET /ui/api/export/view/options: the languages an export of the view can offer. */
export interface ExportViewChoices {
  /** Every language of the catalogue's texts and feature values, the default first. */
  languages: string[];
  /** Those of the texts (the grid's Name column becomes short[L] for each chosen one). */
  textLanguages: string[];
  defaultLanguage: string;
}

/** POST /ui/api/export/view: the view to export, checked before the download starts. */
export interface ExportViewRequest {
  format: 'csv' | 'xlsx';
  select: SelectionView;
  /** The spreadsheet's column names (docs/spreadsheets.md); absent: every field, text and feature. */
  columns?: string[];
  languages?: string[];
  /** CSV only: a UTF-8 byte-order mark first, for Excel. */
  bom?: boolean;
}

/** The checked export: the browser downloads `url` (once, within a minute) as `fileName`. */
export interface ExportViewReady {
  url: string;
  fileName: string;
  /** The products the selection names now. */
  products: number;
}
