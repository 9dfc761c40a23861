import { Alert, Button, Checkbox, FileInput, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload, UploadAborted } from '../api.js';
import { enterConfirms } from '../form-keys.js';
import { errorText } from '../error-text.js';
import { receiveJob, type WindowJob } from '../jobs.js';
import { ImportProgress } from './import-progress.js';

type Mode = 'merge' | 'replace';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The media type pim takes the file as: a spreadsheet by its name (.csv, .xlsx) or its type, else
 * BMEcat's XML (a file's own type may be empty or anything).
 */
function mediaTypeOf(file: File): string {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv') || file.type === 'text/csv') return 'text/csv';
  if (name.endsWith('.xlsx') || file.type === XLSX) return XLSX;
  return file.type === 'text/xml' ? 'text/xml' : 'application/xml';
}

/** What the dialog shows: the form, the file on its way up, or the job (running or ended). */
type Phase =
  | { step: 'form' }
  | { step: 'upload'; name: string; sent: number }
  | { step: 'job'; id: number; name: string };

/**
 * File › Import…: pick a file (BMEcat, CSV or XLSX) and how to import it (merge or replace for
 * BMEcat; a spreadsheet creates and updates rows); the file goes up, then the import runs as a job
 * whose progress the server pushes (the bar, products or rows done, Cancel), and its report at
 * the end. Closing while the file goes up stops the upload; closing while the job runs leaves it
 * running (the status bar shows it and opens this dialog on it again: `jobId`).
 */
export function ImportDialog({
  opened,
  onClose,
  workspace,
  jobId,
}: {
  opened: boolean;
  onClose: () => void;
  /** The open workspace's name, which the warning of replace names. */
  workspace: string;
  /** A running or ended job to show instead of the form. */
  jobId?: number;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('import.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <ImportBody onClose={onClose} workspace={workspace} jobId={jobId} />
    </Modal>
  );
}

/** The dialog's content: mounted while it is open, so that each opening starts afresh. */
function ImportBody({
  onClose,
  workspace,
  jobId,
}: {
  onClose: () => void;
  workspace: string;
  jobId: number | undefined;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>(
    jobId === undefined ? { step: 'form' } : { step: 'job', id: jobId, name: '' },
  );
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<Mode>('merge');
  const [dryRun, setDryRun] = useState(false);
  const [continueOnError, setContinueOnError] = useState(false);
  const [error, setError] = useState<unknown>();
  const uploading = useRef<AbortController | undefined>(undefined);
  const spreadsheet =
    file !== null && mediaTypeOf(file) !== 'application/xml' && mediaTypeOf(file) !== 'text/xml';
  // Closing the dialog while the file goes up stops the upload: no job was started yet.
  useEffect(() => () => uploading.current?.abort(), []);
  // The file picker has the focus whenever the form shows (at the start, back from a report or a
  // failure). FileInput's ref is its hidden <input type=file>: the button is found by its attribute.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (phase.step === 'form') form.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [phase.step]);

  const start = async () => {
    if (!file || phase.step !== 'form') return;
    setError(undefined);
    const controller = new AbortController();
    uploading.current = controller;
    const type = mediaTypeOf(file);
    const query = new URLSearchParams({
      name: file.name.slice(0, 255) || 'upload',
      ...(spreadsheet ? {} : { mode }),
      dryRun: String(dryRun),
      continueOnError: String(continueOnError),
    });
    setPhase({ step: 'upload', name: file.name, sent: 0 });
    try {
      const job = await upload<WindowJob>(
        `/import?${query}`,
        file,
        type,
        (sent) => setPhase((p) => (p.step === 'upload' ? { ...p, sent } : p)),
        controller.signal,
      );
      receiveJob(queryClient, job);
      setPhase({ step: 'job', id: job.id, name: file.name });
    } catch (failure) {
      setPhase({ step: 'form' });
      if (!(failure instanceof UploadAborted)) setError(failure);
    } finally {
      uploading.current = undefined;
    }
  };

  if (phase.step !== 'form')
    return (
      <ImportProgress
        upload={phase.step === 'upload' ? phase : undefined}
        jobId={phase.step === 'job' ? phase.id : undefined}
        onStopUpload={() => uploading.current?.abort()}
        onAnother={() => {
          setFile(null);
          setPhase({ step: 'form' });
        }}
        onClose={onClose}
      />
    );

  const replacing = mode === 'replace' && !dryRun && !spreadsheet;
  return (
    <form
      ref={form}
      onKeyDown={enterConfirms}
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <Stack>
        {error !== undefined && (
          <Alert color="red" role="alert">
            {errorText(t, error)}
          </Alert>
        )}
        <FileInput
          label={t('import.file')}
          description={t('import.fileHint')}
          placeholder={t('import.pickFile')}
          accept={`.xml,.csv,.xlsx,application/xml,text/xml,text/csv,${XLSX}`}
          value={file}
          onChange={setFile}
          clearable
          clearButtonProps={{ 'aria-label': t('import.clearFile') }}
          required
          data-autofocus
        />
        {spreadsheet ? (
          <Text size="sm" data-testid="spreadsheet-note">
            {t('import.spreadsheetNote')}
          </Text>
        ) : (
          <Radio.Group label={t('import.mode')} value={mode} onChange={(value) => setMode(value as Mode)}>
            <Stack gap="xs" mt={4}>
              <Radio value="merge" label={t('import.merge')} description={t('import.mergeHint')} />
              <Radio value="replace" label={t('import.replace')} description={t('import.replaceHint')} />
            </Stack>
          </Radio.Group>
        )}
        {mode === 'replace' && !spreadsheet && (
          // No Alert title: Mantine colours it, below AA contrast on the light background.
          <Alert color="red" data-testid="replace-warning">
            <Text size="sm" fw={700}>
              {t('import.replaceWarningTitle')}
            </Text>
            <Text size="sm">{t('import.replaceWarning', { workspace })}</Text>
          </Alert>
        )}
        <Checkbox
          label={t('import.dryRun')}
          description={t('import.dryRunHint')}
          checked={dryRun}
          onChange={(e) => setDryRun(e.currentTarget.checked)}
        />
        <Checkbox
          label={t('import.continueOnError')}
          description={t('import.continueOnErrorHint')}
          checked={continueOnError}
          onChange={(e) => setContinueOnError(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" color={replacing ? 'red' : undefined} disabled={!file}>
            {dryRun ? t('import.startDryRun') : replacing ? t('import.startReplace') : t('import.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
