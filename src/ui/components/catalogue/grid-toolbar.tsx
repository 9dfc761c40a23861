import { Button, CloseButton, Group, Pill, Text, TextInput } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueState } from '../../catalogue-route.js';
import { ColumnsMenu } from './columns-menu.js';
import { FiltersMenu } from './filters-menu.js';
import type { GridPreferences } from './grid-columns.js';

/**
 * How long typing rests before the search runs, so that a word typed in one go is one request,
 * not one per key. 150 ms: practised typists' keys follow each other within about 120 ms, and
 * the answer (a pause of 150 ms, then about 100 ms for the count, the rows and their rendering)
 * is on screen within the 300 ms a search may take (issue 33). A slower typist's pause shows
 * the matches so far: a request that answers in tens of milliseconds on the server.
 */
const SEARCH_MS = 150;

interface Props {
  state: CatalogueState;
  update: (change: Partial<CatalogueState>, options?: { replace?: boolean }) => void;
  count: number | undefined;
  preferences: GridPreferences;
  onPreferences: (next: GridPreferences) => void;
  searchRef: RefObject<HTMLInputElement | null>;
  canEdit: boolean;
  onNew: () => void;
  /** A narrow window: the group tree is behind this button. */
  onGroups?: () => void;
}

/** Above the grid: the search box, the filters and their chips, the number of matches, the columns. */
export function GridToolbar({
  state,
  update,
  count,
  preferences,
  onPreferences,
  searchRef,
  canEdit,
  onNew,
  onGroups,
}: Props) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(state.q);
  // The search this box sent last: the address naming it is no reason to reset what was typed since.
  const sent = useRef(state.q);
  const search = useCallback(
    (q: string) => {
      sent.current = q;
      update({ q }, { replace: true });
    },
    [update],
  );
  // The address changed from elsewhere (Back, a link): the box follows it.
  useEffect(() => {
    if (state.q !== sent.current) setText(state.q);
    sent.current = state.q;
  }, [state.q]);
  useEffect(() => {
    if (text === state.q) return;
    const timer = setTimeout(() => search(text), SEARCH_MS);
    return () => clearTimeout(timer);
  }, [text, state.q, search]);

  const chips: { key: string; label: string; clear: Partial<CatalogueState> }[] = [];
  if (state.mainOnly)
    chips.push({ key: 'main', label: t('grid.filter.mainOnly'), clear: { mainOnly: false } });
  if (state.updatedSince)
    chips.push({
      key: 'since',
      label: t('grid.filter.sinceChip', { date: state.updatedSince }),
      clear: { updatedSince: '' },
    });
  if (state.textLang && state.text)
    chips.push({
      key: 'text',
      label: t(`grid.filter.text.${state.text}Chip`, { lang: state.textLang }),
      clear: { textLang: '', text: '' },
    });
  if (state.ftidref && state.feature)
    chips.push({
      key: 'feature',
      label: t(`grid.filter.feature.${state.feature}Chip`, { ftidref: state.ftidref }),
      clear: { ftidref: '', feature: '' },
    });
  if (state.lang)
    chips.push({ key: 'lang', label: t('grid.filter.langChip', { lang: state.lang }), clear: { lang: '' } });

  return (
    <Group gap="xs" mb="xs" wrap="wrap" align="center">
      <TextInput
        ref={searchRef}
        type="search"
        aria-label={t('grid.search')}
        placeholder={t('grid.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') search(text);
        }}
        rightSection={
          text ? (
            <CloseButton size="sm" aria-label={t('grid.clearSearch')} onClick={() => setText('')} />
          ) : null
        }
        w={{ base: '100%', xs: 260 }}
        data-testid="grid-search"
      />
      {onGroups && (
        <Button size="sm" variant="default" onClick={onGroups}>
          {t('groupTree.title')}
        </Button>
      )}
      <FiltersMenu state={state} update={update} />
      <ColumnsMenu preferences={preferences} onPreferences={onPreferences} />
      {canEdit && (
        <Button size="sm" variant="light" onClick={onNew}>
          {t('grid.newProduct')}
        </Button>
      )}
      <Text size="sm" aria-live="polite" data-testid="grid-count" ml="auto">
        {count === undefined
          ? t('grid.counting')
          : t('grid.count', { count, formatted: count.toLocaleString(i18n.language) })}
      </Text>
      {chips.length > 0 && (
        <Group gap={4} w="100%">
          {chips.map((chip) => (
            <Pill
              key={chip.key}
              withRemoveButton
              removeButtonProps={{ 'aria-label': t('grid.filter.remove', { filter: chip.label }) }}
              onRemove={() => update(chip.clear)}
            >
              {chip.label}
            </Pill>
          ))}
        </Group>
      )}
    </Group>
  );
}
