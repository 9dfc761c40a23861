import { ActionIcon, Group, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProductEditor } from './product-editor.js';

interface Props {
  productId: number | 'new';
  canEdit: boolean;
  /** The editor alone (the grid hidden), else beside the grid. */
  alone: boolean;
  onAlone: (alone: boolean) => void;
  onOpenProduct: (id: number) => void;
  onCreated: (id: number) => void;
  onClose: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

/** The product editor beside the grid (split view) or alone, with the toggle between the two. */
export function ProductPanel({ productId, alone, onAlone, ...editor }: Props) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      p="sm"
      style={{ flex: alone ? 1 : '0 0 min(540px, 44%)', minWidth: 0, overflow: 'auto' }}
      data-testid="product-panel"
    >
      <Group justify="flex-end" mb={4} visibleFrom="sm">
        <ActionIcon
          variant="subtle"
          aria-label={alone ? t('editor.split') : t('editor.alone')}
          onClick={() => onAlone(!alone)}
        >
          {alone ? '◧' : '▣'}
        </ActionIcon>
      </Group>
      <ProductEditor
        key={productId}
        productId={productId}
        canEdit={editor.canEdit}
        onOpenProduct={editor.onOpenProduct}
        onClose={editor.onClose}
        onCreated={editor.onCreated}
        onDeleted={editor.onClose}
        onDirtyChange={editor.onDirtyChange}
      />
    </Paper>
  );
}
