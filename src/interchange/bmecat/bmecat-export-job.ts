import { createWriteStream } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import { ConflictError } from '../../domain/errors.js';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RequestContext } from '../../domain/context.js';
import type { JobDtoValue } from '../../domain/jobs/job.schemas.js';
import type { JobService } from '../../domain/jobs/job.service.js';
import { countProductGrid } from '../../domain/products/product-grid.service.js';
import { RIGHTS } from '../../domain/users/roles.js';
import {
  checkExportOptions,
  exportBmecat,
  newExportReport,
  type ExportOptions,
  type ExportReport,
} from './bmecat-export.js';

export interface ExportJobInput {
  /** The file to write, on this machine: written under another name and renamed once complete. */
  path: string;
  options: Omit<ExportOptions, 'onProgress'>;
  /** Whether an existing file at `path` is replaced (the command line) or the export fails (agents). */
  replace: boolean;
}

/**
 * A BMEcat export into a file as a job (`pim export FILE`, MCP's export_bmecat): progress against
 * the number of products, cancel at the next page. The file appears only whole: a failed or
 * cancelled export leaves no file (and an existing one unchanged); it is written beside its place
 * under another name first, so the two are on one file system.
 */
export async function startBmecatExport(
  jobs: JobService,
  ctx: RequestContext,
  input: ExportJobInput,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const { path, options, replace } = input;
  const format = options.format ?? '2005';
  await checkExportOptions(ctx, options);
  return jobs.start(
    ctx,
    'bmecat-export',
    { file: path, format, ...options },
    async (handle) => {
      const total = await countProductGrid(
        ctx,
        options.groupId === undefined ? {} : { groupId: options.groupId, subgroups: true },
      );
      await handle.progress(0, total);
      const report: ExportReport & { file?: string } = newExportReport(format);
      const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
      try {
        await pipeline(
          Readable.from(
            exportBmecat(ctx, { ...options, onProgress: (n) => handle.progress(n, total) }, report),
          ),
          createWriteStream(partial, { flags: 'wx' }),
        );
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
      report.file = path;
      return report;
    },
    RIGHTS.read,
  );
}
