import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MassEditReportView, MassEditUndoReportView } from '../../../window/mass-edit-api.types.js';
import { api } from '../../api.js';
import { errorText } from '../../error-text.js';
import { jobEnded, receiveJob, useJob, type WindowJob } from '../../jobs.js';
import { useFocusOnMount } from '../../use-focus-on-mount.js';
import { CountTable } from '../count-table.js';
import { JobProgress } from '../job-progress.js';

/** Skipped products named at most (the count says how many there were). */
const SHOWN_SKIPS = 100;

/**
 * A mass edit's job (or its undo's) as the server pushes it: the progress with Cancel, then the
 * report; a mass edit that changed something offers Undo, which follows its own job here.
 */
export function MassEditJob({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(jobId);
  const job = useJob(shown);
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
  const undo = current.kind === 'mass-edit-undo';
  if (!jobEnded(current))
    return (
      <JobProgress
        key={current.id}
        job={current}
        title={undo ? t('massEdit.undoing') : t('massEdit.running')}
        onClose={onClose}
      />
    );
  return undo ? (
    <UndoEnded job={current} onClose={onClose} />
  ) : (
    <EditEnded job={current} onUndo={setShown} onClose={onClose} />
  );
}

/** How the job ended, in one line: done, cancelled or failed (with the server's reason). */
function Outcome({ job, done, partial }: { job: WindowJob; done: string; partial: string }) {
  const { t } = useTranslation();
  if (job.state === 'succeeded')
    return (
      <Alert color="green" role="status">
        {done}
      </Alert>
    );
  return (
    <Alert color={job.state === 'failed' ? 'red' : 'gray'} role={job.state === 'failed' ? 'alert' : 'status'}>
      <Text size="sm" fw={700}>
        {job.state === 'failed' ? t('massEdit.failed') : t('massEdit.cancelled')}
      </Text>
      {job.error && <Text size="sm">{job.error.message}</Text>}
      <Text size="sm">{partial}</Text>
    </Alert>
  );
}

function EditEnded({
  job,
  onUndo,
  onClose,
}: {
  job: WindowJob;
  onUndo: (id: number) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const close = useFocusOnMount<HTMLButtonElement>();
  const report = job.report as MassEditReportView | null;
  const undo = useMutation({
    mutationFn: () => api<WindowJob>('POST', `/jobs/${job.id}/undo`),
    onSuccess: (answer) => {
      receiveJob(queryClient, answer);
      onUndo(answer.id);
    },
  });
  const rows: [string, number][] = report
    ? [
        [t('massEdit.count.selected'), report.selected],
        [t('massEdit.count.changed'), report.changed],
        [t('massEdit.count.unchanged'), report.unchanged],
        [t('massEdit.count.missing'), report.missing],
        ...(report.action === 'delete'
          ? ([[t('massEdit.count.variantsDeleted'), report.variantsDeleted]] as [string, number][])
          : []),
      ]
    : [];
  return (
    <Stack data-testid="mass-edit-report">
      <Outcome
        job={job}
        done={t('massEdit.succeeded', {
          count: report?.changed ?? 0,
          formatted: (report?.changed ?? 0).toLocaleString(i18n.language),
        })}
        partial={t('massEdit.partial', {
          count: report?.changed ?? 0,
          formatted: (report?.changed ?? 0).toLocaleString(i18n.language),
        })}
      />
      {report && <CountTable rows={rows} testId="mass-edit-counts" />}
      {undo.error && (
        <Alert color="red" role="alert">
          {errorText(t, undo.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        {report?.undoable && (
          <Button variant="default" onClick={() => undo.mutate()} loading={undo.isPending}>
            {t('massEdit.undo')}
          </Button>
        )}
        <Button ref={close} onClick={onClose}>
          {t('common.close')}
        </Button>
      </Group>
    </Stack>
  );
}

function UndoEnded({ job, onClose }: { job: WindowJob; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const close = useFocusOnMount<HTMLButtonElement>();
  const report = job.report as MassEditUndoReportView | null;
  return (
    <Stack data-testid="mass-edit-undo-report">
      <Outcome
        job={job}
        done={t('massEdit.undone', {
          count: report?.restored ?? 0,
          formatted: (report?.restored ?? 0).toLocaleString(i18n.language),
        })}
        partial={t('massEdit.undoPartial', {
          count: report?.restored ?? 0,
          formatted: (report?.restored ?? 0).toLocaleString(i18n.language),
        })}
      />
      {report && (
        <CountTable
          testId="mass-edit-counts"
          rows={[
            [t('massEdit.count.restored'), report.restored],
            [t('massEdit.count.skipped'), report.skippedCount],
          ]}
        />
      )}
      {report && report.skipped.length > 0 && (
        <div>
          <Text fw={700} size="sm">
            {t('massEdit.skippedTitle', { count: report.skippedCount })}
          </Text>
          <List size="sm" data-testid="mass-edit-skipped" style={{ overflowWrap: 'anywhere' }}>
            {report.skipped.slice(0, SHOWN_SKIPS).map((skip) => (
              <List.Item key={skip.id}>
                {t('massEdit.skippedItem', { pid: skip.supplierPid, reason: skip.reason })}
              </List.Item>
            ))}
          </List>
          {report.skippedCount > SHOWN_SKIPS && (
            <Text size="sm" c="dimmed">
              {t('massEdit.moreSkipped', { count: report.skippedCount - SHOWN_SKIPS })}
            </Text>
          )}
        </div>
      )}
      {report && report.lost.length > 0 && (
        <List size="sm" data-testid="mass-edit-lost">
          {report.lost.map((line, i) => (
            <List.Item key={i}>{line}</List.Item>
          ))}
        </List>
      )}
      <Group justify="flex-end">
        <Button ref={close} onClick={onClose}>
          {t('common.close')}
        </Button>
      </Group>
    </Stack>
  );
}
