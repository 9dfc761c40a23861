import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ExportViewChoices,
  ExportViewReady,
  ExportViewRequest,
} from '../../../window/export-view-api.types.js';
import type { GridColumnId } from '../../../window/grid-columns.constants.js';
import type { SelectionView } from '../../../window/mass-edit-api.types.js';
import { api } from '../../api.js';
import { startDownload } from '../../download.js';
import { enterConfirms } from '../../form-keys.js';
import { ExportLanguages } from '../export-languages.js';
import { errorText } from '../../error-text.js';
import { viewColumns } from './export-view-columns.js';

/** What the dialog exports: the view as it was when the dialog opened. */
export interface ExportedView {
  select: SelectionView;
  /** The products it names (the selection's size, or the grid's count; undefined: not counted yet). */
  size: number | undefined;
  /** Whether the user picked these rows (else: everything the grid's filters match). */
  picked: boolean;
  /** The grid's visible columns, in their order. */
  columns: GridColumnId[];
}

type Format = 'csv' | 'xlsx';

/**
 * File › Export view…: the grid's view (its selection, or all its filters match, with or without
 * variants as the grid says) as CSV or XLSX, with the grid's columns or every column, in the
 * languages ticked (all the catalogue's by default). The server checks the view first, so a
 * refusal shows here; then the browser downloads the streamed file.
 */
export function ExportViewDialog({ view, onClose }: { view: ExportedView | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={view !== null}
      onClose={onClose}
      title={t('exportView.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {view && <ExportViewForm view={view} onClose={onClose} />}
    </Modal>
  );
}

function ExportViewForm({ view, onClose }: { view: ExportedView; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const choices = useQuery({
    queryKey: ['export', 'view', 'choices'],
    queryFn: () => api<ExportViewChoices>('GET', '/export/view/options'),
    staleTime: 0,
  });
  const [format, setFormat] = useState<Format>('xlsx');
  const [bom, setBom] = useState(false);
  const [allColumns, setAllColumns] = useState(false);
  // The grid's choice to start with; here for everyone (a VIEWER has no selection bar to make it).
  const [variants, setVariants] = useState(view.select.includeVariants === true);
  // undefined: every language of the catalogue (until the user picks).
  const [picked, setPicked] = useState<string[] | undefined>();
  const all = choices.data?.languages ?? [];
  const languages = picked ?? all;

  const download = useMutation({
    mutationFn: () => {
      const { includeVariants: _grid, ...select } = view.select;
      const request: ExportViewRequest = {
        format,
        select: variants ? { ...select, includeVariants: true } : select,
      };
      if (allColumns) {
        // Every column in use, of the ticked languages (all of them: none named, so none left out).
        if (languages.length < all.length) request.languages = languages;
      } else {
        request.columns = viewColumns(view.columns, languages, choices.data?.textLanguages ?? []);
      }
      if (format === 'csv') request.bom = bom;
      return api<ExportViewReady>('POST', '/export/view', request);
    },
    onSuccess: ({ url, fileName }) => {
      startDownload(url, fileName);
      onClose();
    },
  });

  const formatted = view.size?.toLocaleString(i18n.language);
  const failure = download.error ?? choices.error;
  return (
    <form
      onKeyDown={enterConfirms}
      onSubmit={(e) => {
        e.preventDefault();
        if (!download.isPending && (all.length === 0 || languages.length > 0)) download.mutate();
      }}
    >
      <Stack>
        {failure && (
          <Alert color="red" role="alert">
            {errorText(t, failure)}
          </Alert>
        )}
        <Text size="sm" data-testid="export-view-what">
          {view.size === undefined
            ? t('exportView.matchingUncounted')
            : view.picked
              ? t('exportView.picked', { count: view.size, formatted })
              : t('exportView.matching', { count: view.size, formatted })}
        </Text>
        <Checkbox
          label={t('exportView.withVariants')}
          checked={variants}
          onChange={(e) => setVariants(e.currentTarget.checked)}
        />
        <Radio.Group label={t('export.format')} value={format} onChange={(v) => setFormat(v as Format)}>
          <Stack gap="xs" mt={4}>
            <Radio value="xlsx" label="XLSX" description={t('exportView.xlsx')} data-autofocus />
            <Radio value="csv" label="CSV" description={t('exportView.csv')} />
          </Stack>
        </Radio.Group>
        {format === 'csv' && (
          <Checkbox
            label={t('exportView.bom')}
            description={t('exportView.bomHint')}
            checked={bom}
            onChange={(e) => setBom(e.currentTarget.checked)}
          />
        )}
        <Radio.Group
          label={t('exportView.columns')}
          value={allColumns ? 'all' : 'grid'}
          onChange={(v) => setAllColumns(v === 'all')}
        >
          <Stack gap="xs" mt={4}>
            <Radio
              value="grid"
              label={t('exportView.gridColumns')}
              description={view.columns.map((id) => t(`grid.column.${id}`)).join(', ')}
            />
            <Radio
              value="all"
              label={t('exportView.allColumns')}
              description={t('exportView.allColumnsHint')}
            />
          </Stack>
        </Radio.Group>
        <ExportLanguages
          all={all}
          value={languages}
          onChange={setPicked}
          loading={choices.isPending}
          description={t('exportView.languagesHint')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={download.isPending}
            disabled={choices.isPending || (all.length > 0 && languages.length === 0)}
          >
            {t('export.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
