import { Fieldset, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CatalogIdentity } from '../../window/job-api.types.js';
import { errorText } from '../error-text.js';
import type { WindowError } from '../window-error.js';

export type HeaderField = keyof CatalogIdentity;
export const HEADER_FIELDS: HeaderField[] = [
  'catalogId',
  'catalogVersion',
  'catalogName',
  'supplierName',
  'supplierId',
  'supplierIdType',
];

/**
 * The HEADER's ids and names in File › Export BMEcat… (catalog-identity.schemas.ts): as stored,
 * changed here (saved with the export, for the next ones too); an empty field writes what the
 * imported file said, else the workspace's name. Read-only without the edit right.
 */
export function ExportHeaderFields({
  stored,
  edits,
  onEdit,
  readOnly,
  error,
}: {
  stored: CatalogIdentity | undefined;
  edits: Partial<Record<HeaderField, string>>;
  onEdit: (field: HeaderField, value: string) => void;
  readOnly: boolean;
  error: WindowError | null;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset
      legend={
        <Text size="sm" fw={700}>
          {t('export.header.legend')}
        </Text>
      }
      variant="unstyled"
    >
      <Text size="xs" c="dimmed" mb={4}>
        {t('export.header.hint')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        {HEADER_FIELDS.map((field) => (
          <TextInput
            key={field}
            label={t(`export.header.${field}`)}
            placeholder={t('export.header.unset')}
            value={edits[field] ?? stored?.[field] ?? ''}
            onChange={(e) => onEdit(field, e.currentTarget.value)}
            readOnly={readOnly}
            disabled={stored === undefined}
            error={error?.field === field ? errorText(t, error) : undefined}
          />
        ))}
      </SimpleGrid>
    </Fieldset>
  );
}
