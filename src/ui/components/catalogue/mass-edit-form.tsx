import { ActionIcon, Button, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MassEditActionView } from '../../../window/mass-edit-api.types.js';
import { GroupSelect } from './group-select.js';
import { useLanguageName, useLanguages } from './language-picker.js';

export const ACTION_CHOICES = [
  'shortText',
  'longText',
  'setFeature',
  'removeFeature',
  'assignGroup',
  'unassignGroup',
  'delete',
] as const;
export type ActionChoice = (typeof ACTION_CHOICES)[number];

/** What the form holds; `actionOf` makes the request's action of it. */
export interface MassEditFields {
  choice: ActionChoice;
  lang: string;
  text: string;
  ftidref: string;
  funit: string;
  values: { lang: string; value: string }[];
  groupId: string | null;
}

export function initialFields(language: string): MassEditFields {
  const lang = language.startsWith('de') ? 'deu' : 'eng';
  return {
    choice: 'setFeature',
    lang,
    text: '',
    ftidref: '',
    funit: '',
    values: [{ lang, value: '' }],
    groupId: null,
  };
}

/** The request's action, or null while a field it needs is empty (Preview stays disabled). */
export function actionOf(f: MassEditFields): MassEditActionView | null {
  switch (f.choice) {
    case 'shortText':
    case 'longText':
      return f.lang
        ? { setText: { kind: f.choice === 'shortText' ? 'short' : 'long', lang: f.lang, value: f.text } }
        : null;
    case 'setFeature': {
      const values = f.values.filter((v) => v.lang && v.value !== '');
      if (!f.ftidref.trim() || values.length === 0) return null;
      return { setFeature: { ftidref: f.ftidref.trim(), funit: f.funit.trim() || null, values } };
    }
    case 'removeFeature':
      return f.ftidref.trim() ? { removeFeature: { ftidref: f.ftidref.trim() } } : null;
    case 'assignGroup':
      return f.groupId ? { assignGroup: { groupId: Number(f.groupId) } } : null;
    case 'unassignGroup':
      return { unassignGroup: {} };
    case 'delete':
      return { delete: {} };
  }
}

/** The fields of the chosen action: one action per mass edit. */
export function MassEditForm({
  fields,
  onChange,
}: {
  fields: MassEditFields;
  onChange: (next: MassEditFields) => void;
}) {
  const { t } = useTranslation();
  const name = useLanguageName();
  const languages = (useLanguages().data ?? []).map((l) => ({ value: l.code, label: name(l.code) }));
  const set = (change: Partial<MassEditFields>) => onChange({ ...fields, ...change });
  const languageSelect = (label: string, value: string, pick: (code: string) => void) => (
    <Select
      label={label}
      data={languages}
      value={value}
      onChange={(code) => code && pick(code)}
      searchable
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
  return (
    <Stack gap="sm">
      <Select
        label={t('massEdit.action')}
        data={ACTION_CHOICES.map((choice) => ({ value: choice, label: t(`massEdit.choice.${choice}`) }))}
        value={fields.choice}
        onChange={(choice) => choice && set({ choice: choice as ActionChoice })}
        allowDeselect={false}
        data-autofocus
        data-testid="mass-edit-action"
        comboboxProps={{ withinPortal: true }}
      />
      {(fields.choice === 'shortText' || fields.choice === 'longText') && (
        <>
          {languageSelect(t('massEdit.language'), fields.lang, (lang) => set({ lang }))}
          {fields.choice === 'shortText' ? (
            <TextInput
              label={t('massEdit.text')}
              value={fields.text}
              onChange={(e) => set({ text: e.currentTarget.value })}
            />
          ) : (
            <Textarea
              label={t('massEdit.text')}
              autosize
              minRows={3}
              maxRows={8}
              value={fields.text}
              onChange={(e) => set({ text: e.currentTarget.value })}
            />
          )}
        </>
      )}
      {(fields.choice === 'setFeature' || fields.choice === 'removeFeature') && (
        <TextInput
          label={t('massEdit.ftidref')}
          description={t('massEdit.ftidrefHint')}
          value={fields.ftidref}
          onChange={(e) => set({ ftidref: e.currentTarget.value })}
          required
        />
      )}
      {fields.choice === 'setFeature' && (
        <>
          <TextInput
            label={t('massEdit.unit')}
            description={t('massEdit.unitHint')}
            value={fields.funit}
            onChange={(e) => set({ funit: e.currentTarget.value })}
          />
          {fields.values.map((v, i) => (
            <Group key={i} gap="xs" align="flex-end" wrap="wrap">
              <div style={{ flex: '1 1 160px' }}>
                {languageSelect(t('massEdit.valueLanguage', { n: i + 1 }), v.lang, (lang) =>
                  set({ values: fields.values.map((w, j) => (j === i ? { ...w, lang } : w)) }),
                )}
              </div>
              <TextInput
                style={{ flex: '1 1 160px' }}
                label={t('massEdit.value', { n: i + 1 })}
                value={v.value}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  set({ values: fields.values.map((w, j) => (j === i ? { ...w, value } : w)) });
                }}
              />
              {fields.values.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('massEdit.removeValue', { n: i + 1 })}
                  onClick={() => set({ values: fields.values.filter((_, j) => j !== i) })}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => set({ values: [...fields.values, { lang: '', value: '' }] })}
            >
              {t('massEdit.addValue')}
            </Button>
          </Group>
        </>
      )}
      {fields.choice === 'assignGroup' && (
        <GroupSelect
          label={t('massEdit.group')}
          value={fields.groupId}
          onChange={(groupId) => set({ groupId })}
          first={[]}
        />
      )}
    </Stack>
  );
}
