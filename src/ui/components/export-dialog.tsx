import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupPathDto } from '../../window/group-tree-api.types.js';
import { api } from '../api.js';
import { parseCatalogueState } from '../catalogue-route.js';
import { startDownload } from '../download.js';
import { enterConfirms } from '../form-keys.js';
import { ExportLanguages } from './export-languages.js';
import { errorText } from '../error-text.js';
import type { ExportCheck, ExportChoices } from '../jobs.js';
import type { CatalogIdentity } from '../../window/job-api.types.js';
import { WindowError } from '../window-error.js';
import { ExportHeaderFields, HEADER_FIELDS, type HeaderField } from './export-header-fields.js';

type Format = '2005' | '2005.1';

/**
 * File › Export BMEcat…: the format, the languages (all the catalogue's by default) and, when a
 * group is selected in the tree, optionally that group alone. The options are checked first (a
 * browser download cannot show a refusal), then the browser downloads the streamed file.
 */
export function ExportDialog({
  opened,
  onClose,
  canEdit,
}: {
  opened: boolean;
  onClose: () => void;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('export.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <ExportForm onClose={onClose} canEdit={canEdit} />
    </Modal>
  );
}

function ExportForm({ onClose, canEdit }: { onClose: () => void; canEdit: boolean }) {
  const { t } = useTranslation();
  // The group selected in the tree, as the address holds it.
  const [groupId] = useState(() => parseCatalogueState(window.location.hash).groupId);
  const choices = useQuery({
    queryKey: ['export', 'choices'],
    queryFn: () => api<ExportChoices>('GET', '/export/options'),
    staleTime: 0,
  });
  const group = useQuery({
    queryKey: ['groups', 'path', groupId],
    queryFn: () => api<GroupPathDto>('GET', `/groups/${groupId}/path`),
    enabled: groupId !== null,
  });
  const groupName = group.data?.path.at(-1)?.name;
  const [format, setFormat] = useState<Format>('2005');
  // undefined: every language of the catalogue (until the user picks).
  const [picked, setPicked] = useState<string[] | undefined>();
  const [onlyGroup, setOnlyGroup] = useState(false);
  const all = choices.data?.languages ?? [];
  const languages = picked ?? all;

  const header = useQuery({
    queryKey: ['export', 'header'],
    queryFn: () => api<CatalogIdentity>('GET', '/export/header'),
    staleTime: 0,
  });
  const [edits, setEdits] = useState<Partial<Record<HeaderField, string>>>({});

  const download = useMutation({
    mutationFn: async () => {
      const changed = Object.entries(edits).filter(
        ([field, value]) => value.trim() !== (header.data?.[field as HeaderField] ?? ''),
      );
      if (canEdit && changed.length > 0) {
        const change = Object.fromEntries(changed.map(([f, v]) => [f, v.trim() === '' ? null : v.trim()]));
        await api<CatalogIdentity>('PUT', '/export/header', change);
        setEdits({});
        await header.refetch();
      }
      const query = new URLSearchParams({ format });
      if (languages.length < all.length) query.set('languages', languages.join(','));
      if (onlyGroup && groupId !== null) query.set('groupId', String(groupId));
      const check = await api<ExportCheck>('GET', `/export/check?${query}`);
      return { url: `/ui/api/export?${query}`, fileName: check.fileName };
    },
    onSuccess: ({ url, fileName }) => {
      startDownload(url, fileName);
      onClose();
    },
  });

  // A refusal of one of the header's fields shows under it; any other (the check's) above the form.
  const refusal = download.error instanceof WindowError ? download.error : null;
  const headerError = refusal && HEADER_FIELDS.some((f) => f === refusal.field) ? refusal : null;
  const failure = (headerError ? null : download.error) ?? choices.error ?? header.error;
  return (
    <form
      onKeyDown={enterConfirms}
      onSubmit={(e) => {
        e.preventDefault();
        if (!download.isPending && languages.length > 0) download.mutate();
      }}
    >
      <Stack>
        {failure && (
          <Alert color="red" role="alert">
            {errorText(t, failure)}
          </Alert>
        )}
        <Radio.Group label={t('export.format')} value={format} onChange={(v) => setFormat(v as Format)}>
          <Stack gap="xs" mt={4}>
            <Radio value="2005" label="BMEcat 2005" description={t('export.format2005')} data-autofocus />
            <Radio value="2005.1" label="BMEcat 2005.1" description={t('export.format20051')} />
          </Stack>
        </Radio.Group>
        <ExportLanguages
          all={all}
          value={languages}
          onChange={setPicked}
          loading={choices.isPending}
          description={t('export.languagesHint')}
        />
        <ExportHeaderFields
          stored={header.data}
          edits={edits}
          onEdit={(field, value) => {
            if (headerError) download.reset();
            setEdits((before) => ({ ...before, [field]: value }));
          }}
          readOnly={!canEdit}
          error={headerError}
        />
        {groupId === null ? (
          <Text size="sm" c="dimmed">
            {t('export.noGroup')}
          </Text>
        ) : (
          <Checkbox
            label={t('export.onlyGroup', { name: groupName ?? `#${groupId}` })}
            checked={onlyGroup}
            onChange={(e) => setOnlyGroup(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            loading={download.isPending}
            disabled={choices.isPending || languages.length === 0}
          >
            {t('export.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
