import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useGroupChoices } from './group-tree-data.js';

interface Props {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  /** Choices before the groups (the top level, no group). */
  first: { value: string; label: string }[];
  /** A group not to offer (a group cannot move under itself). */
  exclude?: number;
}

/** A searchable pick of a group by its path (Werkzeug › Bohrer), for the tree's Move to… and the editor's group. */
export function GroupSelect({ label, value, onChange, first, exclude }: Props) {
  const { t } = useTranslation();
  const choices = useGroupChoices(true);
  const data = [...first, ...(choices ?? []).filter((c) => c.value !== String(exclude))];
  return (
    <Select
      label={label}
      placeholder={t('groupTree.moveSearch')}
      searchable
      limit={50}
      data={data}
      value={value}
      onChange={onChange}
      nothingFoundMessage={choices ? t('groupTree.noMatch') : t('common.loading')}
      data-autofocus
      comboboxProps={{ withinPortal: true }}
    />
  );
}
