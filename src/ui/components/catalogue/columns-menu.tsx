import { ActionIcon, Button, Checkbox, Group, Popover, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PREFERENCES, type GridPreferences } from './grid-columns.js';

interface Props {
  preferences: GridPreferences;
  onPreferences: (next: GridPreferences) => void;
}

/** Show, hide and reorder the grid's columns, by keyboard as well as by mouse (widths: drag a header's edge). */
export function ColumnsMenu({ preferences, onPreferences }: Props) {
  const { t } = useTranslation();
  const columns = preferences.columns;
  const move = (index: number, by: -1 | 1) => {
    const next = [...columns];
    const [column] = next.splice(index, 1);
    next.splice(index + by, 0, column!);
    onPreferences({ ...preferences, columns: next });
  };
  const shown = columns.filter((c) => c.visible).length;
  return (
    <Popover position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button size="sm" variant="default" data-testid="grid-columns">
          {t('grid.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4} role="list" aria-label={t('grid.columns')}>
          {columns.map((column, index) => {
            const label = t(`grid.column.${column.id}`);
            return (
              <Group key={column.id} gap="xs" justify="space-between" wrap="nowrap" role="listitem">
                <Checkbox
                  label={label}
                  checked={column.visible}
                  // The last visible column stays: a grid without columns shows nothing to choose.
                  disabled={column.visible && shown === 1}
                  onChange={(e) =>
                    onPreferences({
                      ...preferences,
                      columns: columns.map((c) =>
                        c.id === column.id ? { ...c, visible: e.currentTarget.checked } : c,
                      ),
                    })
                  }
                />
                <Group gap={2} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    disabled={index === 0}
                    aria-label={t('grid.moveColumnUp', { column: label })}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    disabled={index === columns.length - 1}
                    aria-label={t('grid.moveColumnDown', { column: label })}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </ActionIcon>
                </Group>
              </Group>
            );
          })}
          <Button
            size="xs"
            variant="subtle"
            onClick={() => onPreferences({ ...DEFAULT_PREFERENCES, sort: preferences.sort })}
          >
            {t('grid.resetColumns')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
