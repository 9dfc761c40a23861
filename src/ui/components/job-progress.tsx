import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { errorText } from '../error-text.js';
import { secondsLeft, type ProgressSample } from '../job-eta.js';
import { receiveJob, type WindowJob } from '../jobs.js';
import { useFocusOnMount } from '../use-focus-on-mount.js';

/**
 * A running job of known size as the server pushes it: the bar, products done of the total, the
 * time left (from the rate heard since this view opened), Cancel, and closing while it runs on.
 * For any job with a total (mass edits and their undo); an import's file share is its own view.
 */
export function JobProgress({ job, title, onClose }: { job: WindowJob; title: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const cancelButton = useFocusOnMount<HTMLButtonElement>();
  const first = useRef<ProgressSample | undefined>(undefined);
  const now = { at: Date.now(), processed: job.processed };
  if (!first.current || job.processed < first.current.processed) first.current = now;
  const left = secondsLeft(first.current, now, job.total);
  const cancel = useMutation({
    mutationFn: () => api<WindowJob>('POST', `/jobs/${job.id}/cancel`),
    onSuccess: (answer) => receiveJob(queryClient, answer),
  });
  const total = job.total ?? 0;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Stack>
      <Text>{title}</Text>
      <Progress
        value={total > 0 ? Math.round((job.processed / total) * 100) : 0}
        aria-label={t('jobProgress.bar')}
        size="lg"
        // Striped, not animated: an animation repaints the page without pause while a job runs.
        striped
      />
      <Group justify="space-between" gap="xs">
        <Text data-testid="job-processed">
          {job.cancelRequested
            ? t('jobProgress.cancelling')
            : t('jobProgress.done', { count: total, done: number(job.processed), total: number(total) })}
        </Text>
        {!job.cancelRequested && (
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
          {t('jobProgress.background')}
        </Button>
        <Button
          ref={cancelButton}
          color="red"
          onClick={() => cancel.mutate()}
          loading={cancel.isPending}
          disabled={job.cancelRequested}
        >
          {t('jobProgress.cancel')}
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
