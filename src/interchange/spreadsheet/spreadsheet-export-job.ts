import { createWriteStream } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RequestContext } from '../../domain/context.js';
import { ConflictError } from '../../domain/errors.js';
import type { JobDtoValue } from '../../domain/jobs/job.schemas.js';
import type { JobService } from '../../domain/jobs/job.service.js';
import { RIGHTS } from '../../domain/users/roles.js';
import {
  openSpreadsheetExport,
  type SpreadsheetExportOptions,
  type SpreadsheetExportReport,
} from './spreadsheet-export.js';

export interface SpreadsheetExportJobInput {
  /** The file to write, on this machine: written under another name and renamed once complete. */
  path: string;
  options: Omit<SpreadsheetExportOptions, 'onProgress'>;
  /** Whether an existing file at `path` is replaced (the command line) or the export fails (agents). */
  replace: boolean;
}

/**
 * A spreadsheet export into a file as a job (`pim export FILE.csv|.xlsx`): everything checked
 * and the selection resolved before the job starts (a refusal is the caller's error, not a failed
 * job), progress against the selection's size after each page, cancel at the next page. The file
 * appears only whole, as a BMEcat export's does (bmecat-export-job.ts).
 */
export async function startSpreadsheetExport(
  jobs: JobService,
  ctx: RequestContext,
  input: SpreadsheetExportJobInput,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const { path, options, replace } = input;
  let progress: ((n: number, total: number) => Promise<void>) | undefined;
  const file = await openSpreadsheetExport(ctx, {
    ...options,
    onProgress: (n, total) => progress?.(n, total),
  });
  // A selection of ids is kept as its count: the job's input is a summary, not a copy of the request.
  const { select, ...rest } = options;
  const { ids, ...filters } = select;
  return jobs.start(
    ctx,
    'spreadsheet-export',
    { file: path, ...rest, select: ids === undefined ? filters : { idCount: ids.length } },
    async (handle) => {
      progress = (n, total) => handle.progress(n, total);
      await handle.progress(0, file.total);
      const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
      try {
        await pipeline(Readable.from(file.chunks), createWriteStream(partial, { flags: 'wx' }));
        // link() never replaces a file: an existing one fails the export (EEXIST) and stays as it was.
        if (replace) await rename(partial, path);
        else
          await link(partial, path).catch((error: NodeJS.ErrnoException) => {
            throw error.code === 'EEXIST'
              ? new ConflictError(`${path} exists already: pim does not replace it`)
              : error;
          });
      } finally {
        await rm(partial, { force: true });
      }
      return { ...file.report, file: path } satisfies SpreadsheetExportReport & { file: string };
    },
    RIGHTS.read,
  );
}
