import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { loadLanguages, type LanguageEntry } from '../../catalogue-api.js';

/** The ISO 639-2 list, once per session: it never changes. */
export const languagesQuery = { queryKey: ['languages'], queryFn: loadLanguages, staleTime: Infinity };

export function useLanguages() {
  return useQuery(languagesQuery);
}

/** A language's name in the window's language, with its code: "Deutsch (deu)". */
export function useLanguageName(): (code: string) => string {
  const { i18n } = useTranslation();
  const languages = useLanguages().data;
  const german = i18n.language.startsWith('de');
  return (code) => {
    const entry = languages?.find((l: LanguageEntry) => l.code === code);
    return entry ? `${german ? entry.de : entry.en} (${code})` : code;
  };
}

/** A searchable select of the languages not yet present; picking one adds it. */
export function LanguagePicker({
  present,
  disabled,
  onPick,
}: {
  present: readonly string[];
  disabled: boolean;
  onPick: (code: string) => void;
}) {
  const { t } = useTranslation();
  const name = useLanguageName();
  const languages = useLanguages().data ?? [];
  const data = languages
    .filter((l) => !present.includes(l.code))
    .map((l) => ({ value: l.code, label: name(l.code) }));
  return (
    <Select
      aria-label={t('editor.addLanguage')}
      placeholder={t('editor.addLanguage')}
      data={data}
      searchable
      value={null}
      disabled={disabled}
      nothingFoundMessage={t('editor.noLanguage')}
      // Mantine keeps a closed dropdown in the page, hidden: its 480 options were 1,000 elements
      // more (and their positioning) for every product the editor opened.
      comboboxProps={{ keepMounted: false }}
      w={240}
      onChange={(code) => code && onPick(code)}
    />
  );
}
