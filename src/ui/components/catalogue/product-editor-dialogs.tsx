import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Save met a change made elsewhere (412): reload (the form's changes are lost) or overwrite. */
export function ConflictDialog({
  opened,
  onReload,
  onOverwrite,
  onCancel,
}: {
  opened: boolean;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={t('editor.conflict.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text>{t('editor.conflict.text')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button variant="default" onClick={onReload}>
            {t('editor.conflict.reload')}
          </Button>
          <Button color="red" onClick={onOverwrite}>
            {t('editor.conflict.overwrite')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Delete, with the number of variants that go with the product. */
export function DeleteDialog({
  opened,
  supplierPid,
  variants,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  supplierPid: string;
  variants: number;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={t('editor.delete.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text>
          {variants > 0
            ? t('editor.delete.withVariants', { supplierPid, count: variants })
            : t('editor.delete.alone', { supplierPid })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm}>
            {t('editor.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
