import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRunningJobs, type WindowJob } from '../jobs.js';

/**
 * The user's jobs running in this pim, under the status bar (outside its live region: progress
 * would be read out four times a second): an import opens its dialog again, where it can be
 * followed and cancelled. Pushed by the server; gone when the job ends.
 */
export function RunningJobs({ onOpenImport }: { onOpenImport: (id: number, opener: HTMLElement) => void }) {
  const { t } = useTranslation();
  const jobs = useRunningJobs();
  if (jobs.length === 0) return null;
  const label = (job: WindowJob) => {
    const file = typeof job.input.file === 'string' ? job.input.file : '';
    if (job.kind === 'mass-edit' || job.kind === 'mass-edit-undo')
      return t(job.kind === 'mass-edit' ? 'jobs.massEdit' : 'jobs.massEditUndo', { count: job.processed });
    if (job.kind === 'spreadsheet-import') return t('jobs.sheetImport', { name: file, count: job.processed });
    return t(job.kind === 'bmecat-import' ? 'jobs.import' : 'jobs.other', {
      name: file,
      count: job.processed,
    });
  };
  const isImport = (job: WindowJob) => job.kind === 'bmecat-import' || job.kind === 'spreadsheet-import';
  return (
    <Group px="sm" pb={4} gap="xs" data-testid="running-jobs">
      {jobs.map((job) =>
        isImport(job) ? (
          <Button
            key={job.id}
            size="compact-sm"
            variant="light"
            onClick={(e) => onOpenImport(job.id, e.currentTarget)}
          >
            {label(job)}
          </Button>
        ) : (
          <Text key={job.id} size="sm">
            {label(job)}
          </Text>
        ),
      )}
    </Group>
  );
}
