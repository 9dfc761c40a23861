import { Alert, Menu } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from '../../../window/catalogue-api.types.js';
import { deleteProduct } from '../../catalogue-api.js';
import { errorText } from '../../error-text.js';
import { DeleteDialog } from './product-editor-dialogs.js';

export interface RowMenuPlace {
  row: GridRow;
  x: number;
  y: number;
}

interface Props {
  place: RowMenuPlace | null;
  canEdit: boolean;
  onClose: () => void;
  onOpen: (id: number) => void;
  onNew: () => void;
  onDeleted: (id: number) => void;
  /** The selection's mass edit (absent: nothing selected, or a VIEWER). */
  onMassEdit?: () => void;
}

/**
 * A row's context menu (right click, the Menu key or Shift+F10 on the active row): open, new
 * product, delete (after a confirmation that names the variants deleted with it). A VIEWER gets
 * Open only.
 */
export function RowMenu({ place, canEdit, onClose, onOpen, onNew, onDeleted, onMassEdit }: Props) {
  const { t } = useTranslation();
  const [confirm, setConfirm] = useState<GridRow | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => deleteProduct(id),
    onSuccess: (_answer, id) => {
      setConfirm(null);
      onDeleted(id);
    },
  });
  return (
    <>
      <Menu
        opened={place !== null}
        onChange={(opened) => !opened && onClose()}
        position="bottom-start"
        withinPortal
        trapFocus
      >
        <Menu.Target>
          <div
            aria-hidden
            style={{ position: 'fixed', left: place?.x ?? 0, top: place?.y ?? 0, width: 1, height: 1 }}
          />
        </Menu.Target>
        <Menu.Dropdown aria-label={place ? place.row.supplierPid : undefined}>
          <Menu.Item onClick={() => place && onOpen(place.row.id)}>{t('grid.menu.open')}</Menu.Item>
          {canEdit && <Menu.Item onClick={onNew}>{t('grid.newProduct')}</Menu.Item>}
          {canEdit && onMassEdit && <Menu.Item onClick={onMassEdit}>{t('selection.massEdit')}</Menu.Item>}
          {canEdit && (
            <Menu.Item color="red" onClick={() => place && setConfirm(place.row)}>
              {t('grid.menu.delete')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {remove.error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => remove.reset()} mb="xs">
          {errorText(t, remove.error)}
        </Alert>
      )}
      <DeleteDialog
        opened={confirm !== null}
        supplierPid={confirm?.supplierPid ?? ''}
        variants={confirm?.variantCount ?? 0}
        onConfirm={() => confirm && remove.mutate(confirm.id)}
        onCancel={() => setConfirm(null)}
      />
    </>
  );
}
