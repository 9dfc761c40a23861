import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '../error-text.js';
import { jobEnded, useJob, type WindowJob } from '../jobs.js';
import { useFocusOnMount } from '../use-focus-on-mount.js';
import { ImportOutcome } from './import-outcome.js';
import { JobProgress } from './job-progress.js';

/**
 * The import dialog after the form: the file going up (its share sent), then the job as the
 * server pushes it (JobProgress: the share of the file read, products or rows done, Cancel), then
 * its report.
 */
export function ImportProgress({
  upload,
  jobId,
  onStopUpload,
  onAnother,
  onClose,
}: {
  upload: { name: string; sent: number } | undefined;
  jobId: number | undefined;
  onStopUpload: () => void;
  onAnother: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const job = useJob(jobId);
  if (upload) return <Uploading upload={upload} onStop={onStopUpload} />;
  if (job.error)
    return (
      <Stack>
        <Alert color="red" role="alert">
          {errorText(t, job.error)}
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('common.close')}</Button>
        </Group>
      </Stack>
    );
  const current = job.data;
  if (!current) return <Text>{t('common.loading')}</Text>;
  if (!jobEnded(current))
    return (
      <JobProgress
        job={current}
        title={t('import.importing', { name: fileOf(current) })}
        onClose={onClose}
        cancelLabel={t('import.cancel')}
        backgroundLabel={t('import.background')}
      />
    );
  return <Ended job={current} onAnother={onAnother} onClose={onClose} />;
}

/** The name the user's file had (the job's input). */
function fileOf(job: WindowJob): string {
  return typeof job.input.file === 'string' ? job.input.file : '';
}

// Each step below moves the focus to its main button as it appears: the one before is gone.

function Uploading({ upload, onStop }: { upload: { name: string; sent: number }; onStop: () => void }) {
  const { t } = useTranslation();
  const stop = useFocusOnMount<HTMLButtonElement>();
  const percent = Math.round(upload.sent * 100);
  return (
    <Stack>
      <Text>{t('import.uploading', { name: upload.name })}</Text>
      <Progress value={percent} aria-label={t('import.uploadProgress')} size="lg" />
      <Text size="sm" c="dimmed">
        {t('import.sent', { percent })}
      </Text>
      <Group justify="flex-end">
        <Button ref={stop} color="red" variant="light" onClick={onStop}>
          {t('import.stopUpload')}
        </Button>
      </Group>
    </Stack>
  );
}

function Ended({ job, onAnother, onClose }: { job: WindowJob; onAnother: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const close = useFocusOnMount<HTMLButtonElement>();
  return (
    <Stack>
      <ImportOutcome job={job} name={fileOf(job)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onAnother}>
          {t('import.another')}
        </Button>
        <Button ref={close} onClick={onClose}>
          {t('common.close')}
        </Button>
      </Group>
    </Stack>
  );
}
