/** A job's progress as heard at one moment. */
export interface ProgressSample {
  at: number;
  processed: number;
}

/**
 * The time left of a job, in seconds, from the rate between the first progress heard and the
 * latest: undefined until there is a rate to go by (two samples apart in time and in work).
 */
export function secondsLeft(
  first: ProgressSample | undefined,
  latest: ProgressSample,
  total: number | null,
): number | undefined {
  if (!first || total === null) return undefined;
  const done = latest.processed - first.processed;
  const elapsed = (latest.at - first.at) / 1000;
  if (done <= 0 || elapsed <= 0) return undefined;
  return Math.max(0, Math.ceil((total - latest.processed) / (done / elapsed)));
}
