import { Button, Group, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LanguagePicker, useLanguageName } from './language-picker.js';
import type { Draft } from './product-editor-model.js';

/**
 * Short and long texts, a tab per language. The long text is a plain text area: markup shows as
 * typed and is sent as it stands, never rendered.
 */
export function ProductTexts({
  draft,
  tab,
  errors,
  readOnly,
  onTab,
  onText,
  onAddLanguage,
  onRemoveLanguage,
}: {
  draft: Draft;
  tab: string | null;
  errors: Record<string, string>;
  readOnly: boolean;
  onTab: (lang: string) => void;
  onText: (kind: 'shortTexts' | 'longTexts', lang: string, value: string) => void;
  onAddLanguage: (lang: string) => void;
  onRemoveLanguage: (lang: string) => void;
}) {
  const { t } = useTranslation();
  const name = useLanguageName();
  const active = tab !== null && draft.languages.includes(tab) ? tab : (draft.languages[0] ?? null);
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>{t('editor.texts')}</Text>
        {!readOnly && <LanguagePicker present={draft.languages} disabled={readOnly} onPick={onAddLanguage} />}
      </Group>
      {draft.languages.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('editor.noTexts')}
        </Text>
      ) : (
        <Tabs value={active} onChange={(value) => value && onTab(value)} keepMounted={false}>
          <Tabs.List>
            {draft.languages.map((lang) => (
              <Tabs.Tab
                key={lang}
                value={lang}
                c={errors[`short.${lang}`] || errors[`long.${lang}`] ? 'red' : undefined}
              >
                {name(lang)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {draft.languages.map((lang) => (
            <Tabs.Panel key={lang} value={lang} pt="sm">
              <Stack gap="sm">
                <TextInput
                  label={t('editor.shortText', { language: name(lang) })}
                  value={draft.shortTexts[lang] ?? ''}
                  readOnly={readOnly}
                  error={errors[`short.${lang}`]}
                  onChange={(event) => onText('shortTexts', lang, event.currentTarget.value)}
                />
                <Textarea
                  label={t('editor.longText', { language: name(lang) })}
                  value={draft.longTexts[lang] ?? ''}
                  readOnly={readOnly}
                  error={errors[`long.${lang}`]}
                  rows={6}
                  resize="vertical"
                  styles={{ input: { fontFamily: 'monospace' } }}
                  onChange={(event) => onText('longTexts', lang, event.currentTarget.value)}
                />
                {!readOnly && (
                  <Group>
                    <Button variant="default" size="compact-sm" onClick={() => onRemoveLanguage(lang)}>
                      {t('editor.removeLanguage', { language: name(lang) })}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}
