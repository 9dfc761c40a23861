import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { RequestContext } from '../../domain/context.js';
import type { JobDtoValue } from '../../domain/jobs/job.schemas.js';
import type { JobService } from '../../domain/jobs/job.service.js';
import { readCsv } from './csv-reader.js';
import { importSpreadsheet } from './spreadsheet-import.js';
import type { SpreadsheetFormat } from './spreadsheet-export.js';
import { readXlsx, type WatchBytes } from './xlsx-reader.js';

export interface SpreadsheetImportJobInput {
  /** The file on this machine. */
  path: string;
  /** The name the job shows (the user's file name). */
  name: string;
  format: SpreadsheetFormat;
  dryRun: boolean;
  continueOnError: boolean;
  /** The file was written for this import only (an upload): removed when the job ends. */
  removeAfter?: boolean;
  /**
   * Wraps the file's bytes as they are read (the command line's progress bar, the window's share
   * read): a CSV file's bytes, an XLSX file's stored parts (readXlsx).
   */
  watch?: WatchBytes;
}

/**
 * A spreadsheet import as a job (kind `spreadsheet-import`): the one way `pim import`,
 * `POST /api/import`, MCP's import_spreadsheet and the window start one.
 */
export function startSpreadsheetImport(
  jobs: JobService,
  ctx: RequestContext,
  input: SpreadsheetImportJobInput,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const { path, name, format, dryRun, continueOnError, removeAfter, watch } = input;
  return jobs.start(
    ctx,
    'spreadsheet-import',
    { file: name, format, dryRun, continueOnError },
    async (handle) => {
      try {
        const csv = () => createReadStream(path) as AsyncIterable<Buffer>;
        const rows = format === 'csv' ? readCsv(watch ? watch(csv()) : csv()) : readXlsx(path, watch);
        return await importSpreadsheet(ctx, rows, {
          format,
          dryRun,
          continueOnError,
          onProgress: (processed) => handle.progress(processed),
        });
      } finally {
        if (removeAfter) await rm(path, { force: true });
      }
    },
  );
}

/** The format a file's name says (.csv, .xlsx), else undefined. */
export function spreadsheetFormatOf(fileName: string): SpreadsheetFormat | undefined {
  const lower = fileName.toLowerCase();
  return lower.endsWith('.csv') ? 'csv' : lower.endsWith('.xlsx') ? 'xlsx' : undefined;
}
