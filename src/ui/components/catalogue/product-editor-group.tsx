import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupSelect } from './group-select.js';
import { useGroupChoices } from './group-tree-data.js';

const NO_GROUP = 'none';

interface Props {
  group: { id: number; name: string } | null;
  readOnly: boolean;
  onChange: (group: { id: number; name: string } | null) => void;
}

/** The product's group, and a keyboard-reachable pick of another from the tree's groups (saved with the form). */
export function ProductGroupField({ group, readOnly, onChange }: Props) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  return (
    <Group gap="xs">
      <Text size="sm" data-testid="editor-group">
        {t('editor.group')}: {group ? group.name : t('editor.noGroup')}
      </Text>
      {!readOnly && (
        <Button size="compact-sm" variant="default" onClick={() => setPicking(true)}>
          {t('editor.changeGroup')}
        </Button>
      )}
      {picking && (
        <GroupPickDialog
          current={group}
          onPick={(picked) => {
            onChange(picked);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </Group>
  );
}

function GroupPickDialog({
  current,
  onPick,
  onClose,
}: {
  current: { id: number } | null;
  onPick: (group: { id: number; name: string } | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const choices = useGroupChoices(true);
  const [target, setTarget] = useState<string | null>(current ? String(current.id) : NO_GROUP);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target === null) return;
    if (target === NO_GROUP) return onPick(null);
    const label = choices?.find((d) => d.value === target)?.label ?? '';
    // The last part of the path is the group's own name.
    onPick({ id: Number(target), name: label.split(' › ').pop() ?? label });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('editor.pickGroup')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <GroupSelect
            label={t('editor.group')}
            value={target}
            onChange={setTarget}
            first={[{ value: NO_GROUP, label: t('editor.noGroup') }]}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={target === null}>
              {t('editor.takeGroup')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
