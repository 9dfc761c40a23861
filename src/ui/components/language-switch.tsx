import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage?.startsWith('de') ? 'de' : 'en';
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('menu.language')}
      value={current}
      onChange={(value) => void i18n.changeLanguage(value)}
      data={[
        { value: 'en', label: 'English' },
        { value: 'de', label: 'Deutsch' },
      ]}
    />
  );
}
