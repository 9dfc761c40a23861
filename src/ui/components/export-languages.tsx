import { Checkbox, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLanguageName } from './catalogue/language-picker.js';

/** An export's languages: one check box each, at least one ticked while the catalogue has any. */
export function ExportLanguages({
  all,
  value,
  onChange,
  loading,
  description,
}: {
  all: string[];
  value: string[];
  onChange: (value: string[]) => void;
  loading: boolean;
  description: string;
}) {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  return (
    <Checkbox.Group
      label={t('export.languages')}
      description={description}
      value={value}
      onChange={onChange}
      error={all.length > 0 && value.length === 0 ? t('export.noLanguage') : undefined}
    >
      <Stack gap={6} mt={6}>
        {loading && <Text size="sm">{t('common.loading')}</Text>}
        {all.map((code) => (
          <Checkbox key={code} value={code} label={languageName(code)} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
