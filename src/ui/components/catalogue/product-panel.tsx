import { ActionIcon, Box, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  productId: number | 'new';
  canEdit: boolean;
  /** The editor alone (the grid hidden), else beside the grid. */
  alone: boolean;
  onAlone: (alone: boolean) => void;
  onOpenProduct: (id: number) => void;
  onClose: () => void;
}

/** The product editor's frame beside the grid (split view) or alone: its title bar with Close and the split toggle. */
export function ProductPanel({ productId, alone, onAlone, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-label={t('editor.label')}
      style={{ flex: alone ? 1 : '0 0 min(560px, 48%)', minWidth: 0, overflow: 'auto' }}
      data-testid="product-panel"
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Text fw={600}>{productId === 'new' ? t('editor.new') : t('editor.title', { id: productId })}</Text>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={alone ? t('editor.split') : t('editor.alone')}
            onClick={() => onAlone(!alone)}
            visibleFrom="sm"
          >
            {alone ? '◧' : '▣'}
          </ActionIcon>
          <ActionIcon variant="subtle" aria-label={t('common.close')} onClick={onClose}>
            ✕
          </ActionIcon>
        </Group>
      </Group>
      <Box data-testid="product-editor-slot" />
    </Paper>
  );
}
