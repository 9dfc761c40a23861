import { Alert, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CountTable } from './count-table.js';
import type { ImportReportView, SpreadsheetImportReportView, WindowJob } from '../jobs.js';

/** Skipped products or rows listed at most (the count says how many there were). */
const SHOWN_SKIPS = 200;

/** A column's letters as a spreadsheet shows them: 1 → A, 27 → AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * Where a failed import stopped, in the user's language: a spreadsheet's cell by row and column
 * letter (the server's message begins with the same place in English: that beginning is left out,
 * the column's name after it kept), a BMEcat file's line and column.
 */
function failurePlace(job: WindowJob, t: TFunction): string {
  const error = job.error;
  if (!error) return '';
  if (error.line == null) return error.message;
  if (job.kind !== 'spreadsheet-import')
    return t('import.failedAt', { line: error.line, column: error.column ?? 1, message: error.message });
  const column = columnLetters(error.column ?? 1);
  const place = `row ${error.line}, column ${column}`;
  const rest = error.message.startsWith(place) ? error.message.slice(place.length) : `: ${error.message}`;
  return t('import.failedAtCell', { row: error.line, column, rest });
}

/** The end of an import: its counts and skipped rows, or where it failed, or that it was cancelled. */
export function ImportOutcome({ job, name }: { job: WindowJob; name: string }) {
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
  if (job.state === 'failed')
    return (
      // Titles of their own: Mantine colours an Alert's title below AA contrast on its background.
      <Alert color="red" role="alert" data-testid="import-outcome">
        <Text size="sm" fw={700}>
          {t('import.failed', { name })}
        </Text>
        <Text size="sm" data-testid="import-error">
          {failurePlace(job, t)}
        </Text>
        <Text size="sm" fw={700} mt="xs">
          {t('import.nothingWritten')}
        </Text>
      </Alert>
    );
  return job.kind === 'spreadsheet-import' ? (
    <SheetReport report={job.report as SpreadsheetImportReportView} name={name} />
  ) : (
    <BmecatReport report={job.report as ImportReportView} name={name} />
  );
}

function BmecatReport({ report, name }: { report: ImportReportView; name: string }) {
  const { t } = useTranslation();
  return (
    <Report
      dryRun={report.dryRun}
      name={name}
      counts={[
        [t('import.count.products'), report.products],
        [t('import.count.created'), report.created],
        [t('import.count.updated'), report.updated],
        [t('import.count.deleted'), report.deleted],
        [t('import.count.groupsCreated'), report.groupsCreated],
        [t('import.count.groupsDeleted'), report.groupsDeleted],
        [t('import.count.skipped'), report.skipped.length],
      ]}
      skipped={report.skipped.length}
      skippedTitle={t('import.skippedTitle', { count: report.skipped.length })}
      skips={report.skipped.slice(0, SHOWN_SKIPS).map((skip) =>
        t('import.skippedAt', {
          line: skip.line,
          column: skip.column,
          pid: skip.supplierPid ?? t('import.noPid'),
          message: skip.message,
        }),
      )}
    />
  );
}

function SheetReport({ report, name }: { report: SpreadsheetImportReportView; name: string }) {
  const { t } = useTranslation();
  return (
    <Report
      dryRun={report.dryRun}
      name={name}
      counts={[
        [t('import.count.rows'), report.rows],
        [t('import.count.created'), report.created],
        [t('import.count.changed'), report.changed],
        [t('import.count.unchanged'), report.unchanged],
        [t('import.count.skippedRows'), report.skippedCount],
      ]}
      skipped={report.skippedCount}
      skippedTitle={t('import.skippedRows', { count: report.skippedCount })}
      skips={report.skipped.slice(0, SHOWN_SKIPS).map((skip) =>
        t('import.skippedCell', {
          row: skip.row,
          column: columnLetters(skip.column),
          name: skip.columnName ? ` (${skip.columnName})` : '',
          pid: skip.supplierPid ?? t('import.noSupplierPid'),
          message: skip.message,
        }),
      )}
    />
  );
}

function Report({
  dryRun,
  name,
  counts,
  skipped,
  skippedTitle,
  skips,
}: {
  dryRun: boolean;
  name: string;
  counts: [string, number][];
  /** How many were skipped; `skips` lists the first of them. */
  skipped: number;
  skippedTitle: string;
  skips: string[];
}) {
  const { t } = useTranslation();
  return (
    <Stack data-testid="import-outcome">
      <Alert color={dryRun ? 'blue' : 'green'} role="status">
        {dryRun ? t('import.dryRunDone', { name }) : t('import.succeeded', { name })}
      </Alert>
      <CountTable rows={counts} testId="import-counts" />
      {skipped > 0 && (
        <div>
          <Text fw={700} size="sm">
            {skippedTitle}
          </Text>
          <List size="sm" data-testid="import-skipped" style={{ overflowWrap: 'anywhere' }}>
            {skips.map((text, i) => (
              <List.Item key={i}>{text}</List.Item>
            ))}
          </List>
          {skipped > skips.length && (
            <Text size="sm" c="dimmed">
              {t('import.moreSkipped', { count: skipped - skips.length })}
            </Text>
          )}
        </div>
      )}
    </Stack>
  );
}
