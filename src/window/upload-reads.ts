import type { JobDtoValue } from '../domain/jobs/job.schemas.js';
import type { WindowJob } from './job-api.types.js';

/** How much of an uploaded file its import has read. */
export interface FileRead {
  size: number;
  read: number;
}

/**
 * The files the window uploaded for imports, by job: how much of each the import has read, which
 * the `job` events carry as `read` (the product count of a streamed file is not known beforehand,
 * its size is). Only this window server's uploads: a job started over REST has no `read`.
 */
export class UploadReads {
  private readonly files = new Map<number, FileRead>();

  track(jobId: number, file: FileRead): void {
    this.files.set(jobId, file);
  }

  forget(jobId: number): void {
    this.files.delete(jobId);
  }

  /** The job with the share of its file read, when the window uploaded it. */
  withRead(job: JobDtoValue): WindowJob {
    const file = this.files.get(job.id);
    if (!file) return job;
    return { ...job, read: file.size === 0 ? 1 : Math.min(1, file.read / file.size) };
  }
}

/** Passes a file's bytes on, counting them into `file.read`. */
export async function* countReads(bytes: AsyncIterable<Buffer>, file: FileRead): AsyncIterable<Uint8Array> {
  for await (const chunk of bytes) {
    file.read += chunk.length;
    yield chunk;
  }
}
