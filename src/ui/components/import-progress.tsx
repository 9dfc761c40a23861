import { Alert, Button, Group, List, Progress, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { errorText } from '../error-text.js';
import { jobEnded, receiveJob, useJob, type ImportReportView, type WindowJob } from '../jobs.js';
import { useFocusOnMount } from '../use-focus-on-mount.js';

/** Skipped products listed at most (the count says how many there were). */
const SHOWN_SKIPS = 200;

/**
 * The import dialog after the form: the file going up (its share sent), then the job as the
 * server pushes it (the share of the file read, products done, Cancel), then its report.
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
  if (!jobEnded(current)) return <Running job={current} onClose={onClose} />;
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

function Running({ job, onClose }: { job: WindowJob; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cancelButton = useFocusOnMount<HTMLButtonElement>();
  const cancel = useMutation({
    mutationFn: () => api<WindowJob>('POST', `/jobs/${job.id}/cancel`),
    onSuccess: (answer) => receiveJob(queryClient, answer),
  });
  return (
    <Stack>
      <Text>{t('import.importing', { name: fileOf(job) })}</Text>
      <Progress
        value={Math.round((job.read ?? 0) * 100)}
        aria-label={t('import.progress')}
        size="lg"
        // Striped, not animated: an animation repaints the page without pause while an import runs.
        striped
      />
      <Text data-testid="import-processed">
        {job.cancelRequested ? t('import.cancelling') : t('import.processed', { count: job.processed })}
      </Text>
      {cancel.error && (
        <Alert color="red" role="alert">
          {errorText(t, cancel.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('import.background')}
        </Button>
        <Button
          ref={cancelButton}
          color="red"
          onClick={() => cancel.mutate()}
          loading={cancel.isPending}
          disabled={job.cancelRequested}
        >
          {t('import.cancel')}
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

/** The end of an import: its counts and skipped products, or where it failed, or that it was cancelled. */
function ImportOutcome({ job, name }: { job: WindowJob; name: string }) {
  const { t } = useTranslation();
  if (job.state === 'cancelled')
    return (
      <Alert color="gray" role="status" data-testid="import-outcome">
        <Text size="sm" fw={700}>
          {t('import.cancelledTitle')}
        </Text>
        <Text size="sm">{t('import.nothingWritten')}</Text>
      </Alert>
    );
  if (job.state === 'failed') {
    const error = job.error;
    return (
      // Titles of their own: Mantine colours an Alert's title below AA contrast on its background.
      <Alert color="red" role="alert" data-testid="import-outcome">
        <Text size="sm" fw={700}>
          {t('import.failed', { name })}
        </Text>
        <Text size="sm" data-testid="import-error">
          {error?.line != null
            ? t('import.failedAt', { line: error.line, column: error.column ?? 1, message: error.message })
            : (error?.message ?? '')}
        </Text>
        <Text size="sm" fw={700} mt="xs">
          {t('import.nothingWritten')}
        </Text>
      </Alert>
    );
  }
  const report = job.report as ImportReportView;
  const counts: [string, number][] = [
    [t('import.count.products'), report.products],
    [t('import.count.created'), report.created],
    [t('import.count.updated'), report.updated],
    [t('import.count.deleted'), report.deleted],
    [t('import.count.groupsCreated'), report.groupsCreated],
    [t('import.count.groupsDeleted'), report.groupsDeleted],
    [t('import.count.skipped'), report.skipped.length],
  ];
  return (
    <Stack data-testid="import-outcome">
      <Alert color={report.dryRun ? 'blue' : 'green'} role="status">
        {report.dryRun ? t('import.dryRunDone', { name }) : t('import.succeeded', { name })}
      </Alert>
      <Table data-testid="import-counts" withRowBorders={false}>
        <Table.Tbody>
          {counts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={400}>
                {label}
              </Table.Th>
              <Table.Td ta="right">{value.toLocaleString()}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {report.skipped.length > 0 && (
        <div>
          <Text fw={700} size="sm">
            {t('import.skippedTitle', { count: report.skipped.length })}
          </Text>
          <List size="sm" data-testid="import-skipped" style={{ overflowWrap: 'anywhere' }}>
            {report.skipped.slice(0, SHOWN_SKIPS).map((skip, i) => (
              <List.Item key={i}>
                {t('import.skippedAt', {
                  line: skip.line,
                  column: skip.column,
                  pid: skip.supplierPid ?? t('import.noPid'),
                  message: skip.message,
                })}
              </List.Item>
            ))}
          </List>
          {report.skipped.length > SHOWN_SKIPS && (
            <Text size="sm" c="dimmed">
              {t('import.moreSkipped', { count: report.skipped.length - SHOWN_SKIPS })}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}
