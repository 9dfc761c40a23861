/**
 * The JSON of the window's import, export and job endpoints (src/window/routes/import.routes.ts,
 * job.routes.ts, export.routes.ts) and of the `job` event, shared with the front end (src/ui
 * imports these types only). The routes check at compile time that the domain's shapes fit them.
 */

export type WindowJobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Where and why a job failed (a file's line and column, when it reads one). */
export interface WindowJobError {
  message: string;
  code: string | null;
  line: number | null;
  column: number | null;
}

/** A job as REST's JobDto shows it, plus what the window adds for a file it uploaded. */
export interface WindowJob {
  id: number;
  kind: string;
  state: WindowJobState;
  workspaceId: number | null;
  processed: number;
  total: number | null;
  createdBy: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelRequested: boolean;
  input: Record<string, unknown>;
  /** A finished import's ImportReportView; null before the end. */
  report: unknown;
  error: WindowJobError | null;
  /**
   * An import of a file the window uploaded: the share of the file read so far (0 to 1), which
   * the progress bar shows (a streamed file's product count is not known beforehand).
   */
  read?: number;
}

/** A product an import skipped (continue on error), with its place in the file. */
export interface ImportSkip {
  line: number;
  column: number;
  supplierPid: string | null;
  message: string;
  code?: string;
}

/** A BMEcat import's report (the import job's `report`). */
export interface ImportReportView {
  transaction: string;
  dryRun: boolean;
  products: number;
  created: number;
  updated: number;
  deleted: number;
  groupsCreated: number;
  groupsDeleted: number;
  skipped: ImportSkip[];
}

/** A row a spreadsheet import skipped (continue on error): its cell, as the spreadsheet numbers it. */
export interface SpreadsheetSkip {
  /** The spreadsheet's row (1 is the header). */
  row: number;
  /** 1-based (A is 1). */
  column: number;
  columnName: string | null;
  supplierPid: string | null;
  message: string;
  code?: string;
}

/** A spreadsheet import's report (the spreadsheet-import job's `report`). */
export interface SpreadsheetImportReportView {
  format: 'csv' | 'xlsx';
  dryRun: boolean;
  rows: number;
  created: number;
  changed: number;
  unchanged: number;
  skipped: SpreadsheetSkip[];
  skippedCount: number;
}

/** GET /ui/api/export/options: what File › Export BMEcat… offers. */
export interface ExportChoices {
  /** The languages of the catalogue's texts, the default first. */
  languages: string[];
  defaultLanguage: string;
}

/** GET /ui/api/export/check: the options are fine; the download will be named so. */
export interface ExportCheck {
  fileName: string;
}

/** GET and PUT /ui/api/export/header: the HEADER's ids and names File › Export BMEcat… shows and sets. */
export type { CatalogIdentity } from '../domain/catalogue/catalog-identity.schemas.js';
