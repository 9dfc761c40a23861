import { domainErrorOf } from '../domain-error-of.js';
import { DatabaseBusyError } from '../errors.js';
import type { JobHandle } from './job.service.js';

/**
 * Runs one step of a job (a mass edit's chunk, an undo's) and, while another process holds the
 * workspace's write lock (a backup tool, `pim mcp`, a long transaction elsewhere), tries again
 * instead of failing: a request gives up after one lock wait (503 DATABASE_BUSY), but a job of
 * 50,000 products should not fail because a backup held the file for six seconds. Between two
 * waits (each as long as a request's, db/lock-wait.ts) the job's progress is recorded again, which
 * is where a cancel or pim's stop reaches it: the step under way then gives up with nothing of it
 * written. The step must be a whole transaction, so that a failed try leaves nothing behind.
 */
export async function stepWhenLockFree<T>(
  job: JobHandle,
  processed: number,
  step: () => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!(domainErrorOf(error) instanceof DatabaseBusyError)) throw error;
      await job.progress(processed);
    }
  }
}
