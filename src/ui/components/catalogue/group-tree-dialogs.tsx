import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api.js';
import { errorText } from '../../error-text.js';
import { groupKeys, type GroupDeletePreview } from './group-tree-data.js';
import { GroupSelect } from './group-select.js';

/** The group a dialog acts on. */
export interface DialogGroup {
  id: number;
  name: string;
}

const TOP_LEVEL = 'top';

/** New subgroup (under `parent`, or at the top level) and Rename: one name. */
export function GroupNameDialog({
  title,
  initial,
  submitLabel,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const save = useMutation({ mutationFn: onSubmit, onSuccess: onClose });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!save.isPending) save.mutate(name);
  };
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('groupTree.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
            required
            error={save.error ? errorText(t, save.error) : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Move to…: a searchable pick of the new parent, or the top level. The server judges the move
 * (under itself or a descendant: its sentence shows here), so the dialog offers every other group.
 */
export function GroupMoveDialog({
  group,
  onMove,
  onClose,
}: {
  group: DialogGroup;
  onMove: (parentId: number | null) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string | null>(null);
  const move = useMutation({ mutationFn: onMove, onSuccess: onClose });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target === null || move.isPending) return;
    move.mutate(target === TOP_LEVEL ? null : Number(target));
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('groupTree.moveTitle', { name: group.name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <GroupSelect
            label={t('groupTree.moveTarget')}
            value={target}
            onChange={setTarget}
            first={[{ value: TOP_LEVEL, label: t('groupTree.topLevel') }]}
            exclude={group.id}
          />
          {move.error && (
            <Alert color="red" role="alert">
              {errorText(t, move.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={target === null} loading={move.isPending}>
              {t('groupTree.move')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Delete: says what happens to the subgroups and the products (from the server's preview) first. */
export function GroupDeleteDialog({
  group,
  onDelete,
  onClose,
}: {
  group: DialogGroup;
  onDelete: (deleteProducts: boolean) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [withProducts, setWithProducts] = useState(false);
  const preview = useQuery({
    queryKey: groupKeys.preview(group.id),
    queryFn: () => api<GroupDeletePreview>('GET', `/groups/${group.id}/delete-preview`),
  });
  const remove = useMutation({ mutationFn: onDelete, onSuccess: onClose });
  const p = preview.data;
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('groupTree.deleteTitle', { name: group.name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        {p && (
          <div data-testid="delete-preview">
            <Text>{t('groupTree.deleteSubgroups', { count: p.subgroupCount })}</Text>
            <Text>
              {withProducts
                ? t('groupTree.deleteProductsToo', { count: p.productCount })
                : t('groupTree.deleteUngroups', { count: p.productCount })}
            </Text>
            {withProducts && p.otherVariantCount > 0 && (
              <Text>{t('groupTree.deleteVariants', { count: p.otherVariantCount })}</Text>
            )}
          </div>
        )}
        {p && p.productCount > 0 && (
          <Checkbox
            label={t('groupTree.deleteWithProducts')}
            checked={withProducts}
            onChange={(e) => setWithProducts(e.currentTarget.checked)}
          />
        )}
        {(preview.error ?? remove.error) && (
          <Alert color="red" role="alert">
            {errorText(t, preview.error ?? remove.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            disabled={!p}
            loading={remove.isPending}
            onClick={() => !remove.isPending && remove.mutate(withProducts)}
          >
            {t('groupTree.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
