import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FIELD_KEYS, type Draft, type FieldKey } from './product-editor-model.js';

/** The product's own fields: supplierPid, supplierIdRef, EAN, manufacturerPid. */
export function ProductFields({
  fields,
  errors,
  readOnly,
  onChange,
}: {
  fields: Draft['fields'];
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (key: FieldKey, value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {FIELD_KEYS.map((key) => (
        <TextInput
          key={key}
          label={t(`editor.field.${key}`)}
          value={fields[key]}
          required={key === 'supplierPid'}
          readOnly={readOnly}
          error={errors[key]}
          onChange={(event) => onChange(key, event.currentTarget.value)}
        />
      ))}
    </SimpleGrid>
  );
}
