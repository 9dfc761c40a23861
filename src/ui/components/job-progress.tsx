import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { errorText } from '../error-text.js';
import { secondsLeft, type ProgressSample } from '../job-eta.js';
import { jobShare, receiveJob, type WindowJob } from '../jobs.js';
import { useFocusOnMount } from '../use-focus-on-mount.js';

/**
 * A running job as the server pushes it: the bar, what is done, the time left (from the rate heard
 * since this view opened), Cancel, and closing while it runs on. One view for every job: a mass
 * edit and its undo count products of a known total; an import of an uploaded file goes by the
 * share of the file read (a streamed file's product count is not known beforehand) and counts
 * products (BMEcat) or rows (a spreadsheet).
 */
export function JobProgress({
  job,
  title,
  onClose,
  cancelLabel,
  backgroundLabel,
}: {
  job: WindowJob;
  title: string;
  onClose: () => void;
  cancelLabel?: string;
  backgroundLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const cancelButton = useFocusOnMount<HTMLButtonElement>();
  const share = jobShare(job);
  const first = useRef<ProgressSample | undefined>(undefined);
  // The time left goes by the share when that is all there is (in millionths, as a count).
  const now = { at: Date.now(), processed: job.total !== null ? job.processed : (share ?? 0) * 1e6 };
  if (!first.current || now.processed < first.current.processed) first.current = now;
  const left = share === undefined ? undefined : secondsLeft(first.current, now, job.total ?? 1e6);
  const cancel = useMutation({
    mutationFn: () => api<WindowJob>('POST', `/jobs/${job.id}/cancel`),
    onSuccess: (answer) => receiveJob(queryClient, answer),
  });
  const number = (n: number) => n.toLocaleString(i18n.language);
  const done =
    job.total !== null
      ? t('jobProgress.done', { count: job.total, done: number(job.processed), total: number(job.total) })
      : t(job.kind === 'spreadsheet-import' ? 'jobProgress.rows' : 'jobProgress.products', {
          count: job.processed,
          formatted: number(job.processed),
        });
  return (
    <Stack>
      <Text>{title}</Text>
      {share !== undefined && (
        <Progress
          value={Math.round(share * 100)}
          aria-label={job.total !== null ? t('jobProgress.bar') : t('jobProgress.fileRead')}
          size="lg"
          // Striped, not animated: an animation repaints the page without pause while a job runs.
          striped
        />
      )}
      <Group justify="space-between" gap="xs">
        <Text data-testid="job-processed">{job.cancelRequested ? t('jobProgress.cancelling') : done}</Text>
        {!job.cancelRequested && share !== undefined && (
          <Text size="sm" c="dimmed" data-testid="job-time-left">
            {left === undefined
              ? t('jobProgress.estimating')
              : t('jobProgress.left', { time: duration(left) })}
          </Text>
        )}
      </Group>
      {cancel.error && (
        <Alert color="red" role="alert">
          {errorText(t, cancel.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {backgroundLabel ?? t('jobProgress.background')}
        </Button>
        <Button
          ref={cancelButton}
          color="red"
          onClick={() => cancel.mutate()}
          loading={cancel.isPending}
          disabled={job.cancelRequested}
        >
          {cancelLabel ?? t('jobProgress.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 75 → "1:15", 8 → "0:08": a clock's reading, the same in both languages. */
function duration(seconds: number): string {
  const s = seconds % 60;
  const m = Math.floor(seconds / 60) % 60;
  const h = Math.floor(seconds / 3600);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
