import { Button, Checkbox, Popover, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueState } from '../../catalogue-route.js';

interface Props {
  state: CatalogueState;
  update: (change: Partial<CatalogueState>) => void;
}

const LANG = /^[a-z]{3}$/;

/**
 * The grid's filters in a popover: main products only, updated since, has or lacks a short text
 * in a language, has or lacks a feature, the name column's language, and (with a group chosen in
 * the tree) whether its subgroups count. Each applies when its input is complete.
 */
export function FiltersMenu({ state, update }: Props) {
  const { t } = useTranslation();
  const [textLang, setTextLang] = useState(state.textLang);
  const [ftidref, setFtidref] = useState(state.ftidref);
  const [lang, setLang] = useState(state.lang);
  useEffect(() => setTextLang(state.textLang), [state.textLang]);
  useEffect(() => setFtidref(state.ftidref), [state.ftidref]);
  useEffect(() => setLang(state.lang), [state.lang]);
  const active =
    Number(state.mainOnly) +
    Number(Boolean(state.updatedSince)) +
    Number(Boolean(state.text)) +
    Number(Boolean(state.feature)) +
    Number(Boolean(state.lang));
  const presence = [
    { value: '', label: t('grid.filter.any') },
    { value: 'has', label: t('grid.filter.has') },
    { value: 'lacks', label: t('grid.filter.lacks') },
  ];
  return (
    <Popover position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button size="sm" variant="default" data-testid="grid-filters">
          {active > 0 ? t('grid.filter.buttonActive', { count: active }) : t('grid.filter.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" w={280}>
          <Switch
            label={t('grid.filter.mainOnly')}
            checked={state.mainOnly}
            onChange={(e) => update({ mainOnly: e.currentTarget.checked })}
          />
          {state.groupId !== null && (
            <Checkbox
              label={t('grid.filter.subgroups')}
              checked={state.subgroups}
              onChange={(e) => update({ subgroups: e.currentTarget.checked })}
            />
          )}
          <TextInput
            type="date"
            label={t('grid.filter.since')}
            value={state.updatedSince}
            onChange={(e) => update({ updatedSince: e.currentTarget.value })}
          />
          <TextInput
            label={t('grid.filter.text.lang')}
            description={t('grid.filter.langHint')}
            value={textLang}
            maxLength={3}
            onChange={(e) => {
              const value = e.currentTarget.value.toLowerCase();
              setTextLang(value);
              if (LANG.test(value) && state.text) update({ textLang: value });
            }}
          />
          <Select
            label={t('grid.filter.text.label')}
            data={presence}
            value={state.text}
            allowDeselect={false}
            disabled={!LANG.test(textLang)}
            onChange={(value) => update({ textLang, text: (value ?? '') as CatalogueState['text'] })}
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label={t('grid.filter.feature.ftidref')}
            value={ftidref}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setFtidref(value);
              if (value.trim() && state.feature) update({ ftidref: value.trim() });
            }}
          />
          <Select
            label={t('grid.filter.feature.label')}
            data={presence}
            value={state.feature}
            allowDeselect={false}
            disabled={!ftidref.trim()}
            onChange={(value) =>
              update({ ftidref: ftidref.trim(), feature: (value ?? '') as CatalogueState['feature'] })
            }
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label={t('grid.filter.nameLang')}
            description={t('grid.filter.nameLangHint')}
            value={lang}
            maxLength={3}
            onChange={(e) => {
              const value = e.currentTarget.value.toLowerCase();
              setLang(value);
              if (value === '' || LANG.test(value)) update({ lang: value });
            }}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
