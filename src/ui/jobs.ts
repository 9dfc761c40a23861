import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { WindowJob } from '../window/job-api.types.js';
import { api } from './api.js';

export type {
  ExportCheck,
  ExportChoices,
  ImportReportView,
  ImportSkip,
  SpreadsheetImportReportView,
  SpreadsheetSkip,
  WindowJob,
} from '../window/job-api.types.js';

/**
 * The desktop user's jobs as the window knows them: each under ['job', id] (pushed by the
 * server's `job` events, read once when a view asks for one it has not heard of), and the ones
 * running here under ['jobs', 'running'] (the status bar's). The server pushes; nothing polls.
 */
export const jobKeys = {
  one: (id: number) => ['job', id] as const,
  running: ['jobs', 'running'] as const,
};

export function jobEnded(job: WindowJob): boolean {
  return job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled';
}

/**
 * How far a job is, 0 to 1: done of its total, else the share of its uploaded file read; undefined
 * when neither tells (the import reads an XLSX file through its zip directory, not as the stream
 * the window counts, so its share would stay at nothing; a job started elsewhere has no upload).
 */
export function jobShare(job: WindowJob): number | undefined {
  if (job.total !== null) return job.total > 0 ? Math.min(1, job.processed / job.total) : 0;
  if (job.read === undefined || job.input.format === 'xlsx') return undefined;
  return job.read;
}

/**
 * The later of two states of one job: an answer that arrives after a pushed event (the 202 of
 * an upload whose job ended at once) must not take the job back to running.
 */
export function laterJob(known: WindowJob | undefined, heard: WindowJob): WindowJob {
  if (!known || known.id !== heard.id) return heard;
  if (jobEnded(known) && !jobEnded(heard)) return known;
  if (!jobEnded(known) && !jobEnded(heard) && heard.processed < known.processed) return known;
  return heard;
}

/** Takes in a job as heard (an event, an answer): its own entry and the running list. */
export function receiveJob(queryClient: QueryClient, job: WindowJob): void {
  const merged = laterJob(queryClient.getQueryData<WindowJob>(jobKeys.one(job.id)), job);
  queryClient.setQueryData(jobKeys.one(job.id), merged);
  queryClient.setQueryData<WindowJob[]>(jobKeys.running, (list = []) => {
    const others = list.filter((j) => j.id !== job.id);
    return jobEnded(merged) ? others : [...others, merged].sort((a, b) => a.id - b.id);
  });
}

/** One job: as pushed; read from the server when first asked for and after a reconnect. */
export function useJob(id: number | undefined) {
  return useQuery({
    queryKey: jobKeys.one(id ?? 0),
    queryFn: () => api<WindowJob>('GET', `/jobs/${id}`),
    enabled: id !== undefined,
    staleTime: Infinity,
  });
}

/** The desktop user's jobs running in this pim (pushed only: the event stream's start sends them). */
export function useRunningJobs(): WindowJob[] {
  return (
    useQuery<WindowJob[]>({
      queryKey: jobKeys.running,
      queryFn: () => [],
      staleTime: Infinity,
      // Kept until the stream says otherwise: a refetch would forget what it pushed.
      enabled: false,
      initialData: [],
    }).data ?? []
  );
}
