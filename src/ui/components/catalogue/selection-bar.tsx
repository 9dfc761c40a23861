import { Button, Checkbox, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { selectionSize, type GridSelection } from './grid-selection.js';

/**
 * Above the grid, for a user who may edit: how much is selected, "Select all N matching" (the
 * grid's search and filters, resolved by the server), whether variants go with the main
 * products, and Mass edit…. A VIEWER gets none of it.
 */
export function SelectionBar({
  selection,
  count,
  withVariants,
  onAllMatching,
  onClear,
  onWithVariants,
  onMassEdit,
}: {
  selection: GridSelection;
  count: number | undefined;
  withVariants: boolean;
  onAllMatching: () => void;
  onClear: () => void;
  onWithVariants: (value: boolean) => void;
  onMassEdit: () => void;
}) {
  const { t, i18n } = useTranslation();
  const size = selectionSize(selection, count);
  const formatted = size.toLocaleString(i18n.language);
  return (
    <Group gap="xs" mb="xs" wrap="wrap" align="center" data-testid="selection-bar">
      <Text size="sm" aria-live="polite" data-testid="selection-size">
        {selection.allMatching
          ? t('selection.allMatching', { count: size, formatted })
          : size === 0
            ? t('selection.none')
            : t('selection.selected', { count: size, formatted })}
      </Text>
      {!selection.allMatching && (count ?? 0) > 0 && (
        <Button size="compact-sm" variant="subtle" onClick={onAllMatching}>
          {t('selection.selectAll', { count: count!, formatted: count!.toLocaleString(i18n.language) })}
        </Button>
      )}
      {size > 0 && (
        <Button size="compact-sm" variant="subtle" onClick={onClear}>
          {t('selection.clear')}
        </Button>
      )}
      <Checkbox
        size="xs"
        label={t('selection.withVariants')}
        checked={withVariants}
        onChange={(e) => onWithVariants(e.currentTarget.checked)}
      />
      <Button size="compact-sm" variant="light" disabled={size === 0} onClick={onMassEdit} ml="auto">
        {t('selection.massEdit')}
      </Button>
    </Group>
  );
}
