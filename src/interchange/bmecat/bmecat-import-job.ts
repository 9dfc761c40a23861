import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { RequestContext } from '../../domain/context.js';
import type { JobDtoValue } from '../../domain/jobs/job.schemas.js';
import type { JobService } from '../../domain/jobs/job.service.js';
import { importBmecat } from './bmecat-import.js';

export interface ImportJobInput {
  /** The file on this machine. */
  path: string;
  /** The name the job shows (the user's file name). */
  name: string;
  dryRun: boolean;
  continueOnError: boolean;
  /** T_NEW_CATALOG: merge (default) or replace (the workspace holds exactly the file's catalogue). */
  mode?: 'merge' | 'replace';
  /** The file was written for this import only (an upload): removed when the job ends. */
  removeAfter?: boolean;
  /** Wraps the file's bytes as they are read (the command line's progress bar). */
  watch?: (bytes: AsyncIterable<Buffer>) => AsyncIterable<Uint8Array>;
}

/** From this size on, the file is parsed in a worker thread while the job's thread writes. */
export const PARSE_IN_WORKER_FROM_BYTES = 1024 * 1024;

/**
 * A BMEcat import as a job: the one way every entry point (`pim import`, `POST /api/import`)
 * starts one, so that each has the same job, progress and cancel.
 */
export async function startBmecatImport(
  jobs: JobService,
  ctx: RequestContext,
  input: ImportJobInput,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const { path, name, dryRun, continueOnError, removeAfter, watch } = input;
  const mode = input.mode ?? 'merge';
  const started = await jobs.start(
    ctx,
    'bmecat-import',
    { file: name, mode, dryRun, continueOnError },
    async (handle) => {
      const stream = createReadStream(path) as AsyncIterable<Buffer>;
      try {
        const { size } = await stat(path);
        return await importBmecat(ctx, watch ? watch(stream) : stream, {
          mode,
          dryRun,
          continueOnError,
          parseInWorker: size >= PARSE_IN_WORKER_FROM_BYTES,
          onProgress: (processed) => handle.progress(processed),
        });
      } finally {
        if (removeAfter) await rm(path, { force: true });
      }
    },
  );
  return started;
}
