import { Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createVariant, type ProductSheet } from '../../catalogue-api.js';
import { errorText } from '../../error-text.js';

/** The variants of a main product (each opened with a click, a new one created here), or a variant's main product. */
export function ProductVariants({
  sheet,
  canCreate,
  onOpenProduct,
  onVariantCreated,
}: {
  sheet: ProductSheet;
  /** False for a VIEWER and while the form has unsaved changes (a new variant changes the main product). */
  canCreate: boolean;
  onOpenProduct: (id: number) => void;
  onVariantCreated: () => void;
}) {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const { product } = sheet;
  if (product.masterProductId !== null) {
    const mainId = product.masterProductId;
    return (
      <Text size="sm">
        {t('editor.variantOf')}{' '}
        <Anchor component="button" type="button" onClick={() => onOpenProduct(mainId)}>
          {t('editor.openMain', { id: mainId })}
        </Anchor>
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('editor.variants', { count: sheet.variants.length })}</Text>
      <Group gap="xs">
        {sheet.variants.map((variant) => (
          <Button
            key={variant.id}
            variant="light"
            size="compact-sm"
            onClick={() => onOpenProduct(variant.id)}
          >
            {variant.name ? `${variant.supplierPid} · ${variant.name}` : variant.supplierPid}
          </Button>
        ))}
        <Button variant="default" size="compact-sm" disabled={!canCreate} onClick={() => setCreating(true)}>
          {t('editor.newVariant')}
        </Button>
      </Group>
      <NewVariantDialog
        opened={creating}
        mainId={product.id}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          onVariantCreated();
        }}
      />
    </Stack>
  );
}

function NewVariantDialog({
  opened,
  mainId,
  onClose,
  onCreated,
}: {
  opened: boolean;
  mainId: number;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const [supplierPid, setSupplierPid] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await createVariant(mainId, { supplierPid });
      setSupplierPid('');
      onCreated();
    } catch (failure) {
      setError(errorText(t, failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('editor.newVariant')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput
            label={t('editor.field.supplierPid')}
            required
            data-autofocus
            value={supplierPid}
            error={error}
            onChange={(event) => setSupplierPid(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('editor.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
