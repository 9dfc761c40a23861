import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api.js';
import { errorText } from '../../error-text.js';
import {
  GroupDeleteDialog,
  GroupMoveDialog,
  GroupNameDialog,
  type DialogGroup,
} from './group-tree-dialogs.js';
import {
  fetchGroupPath,
  rowKey,
  TOP_KEY,
  useRefreshGroups,
  useTreeRows,
  type TreeRow,
} from './group-tree-data.js';

/** What the grid puts on a drag of products: JSON {"ids": [...]}. */
export const PRODUCTS_DRAG_TYPE = 'application/x-pim-products';
/** A group dragged within the tree: its id. */
const GROUP_DRAG_TYPE = 'application/x-pim-group';

type Dialog =
  { kind: 'create'; parent: DialogGroup | null } | { kind: 'rename' | 'move' | 'delete'; group: DialogGroup };

type Message = { ok: boolean; text: string };

export interface GroupTreeProps {
  selectedGroupId: number | null;
  onSelect(groupId: number | null): void;
  canEdit: boolean;
}

/**
 * The product groups as a tree (ARIA tree, roving tabindex), opened level by level: "All
 * products" on top, each group with its product count. With canEdit: new subgroup, rename, move
 * (by drag and drop or Move to…) and delete, and products dragged from the grid dropped on a group
 * are assigned to it. Which nodes are open survives every reload of the levels.
 */
export function GroupTree({ selectedGroupId, onSelect, canEdit }: GroupTreeProps) {
  const { t } = useTranslation();
  const [topOpen, setTopOpen] = useState(true);
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const [focusKey, setFocusKey] = useState(rowKey(selectedGroupId));
  const [dialog, setDialog] = useState<Dialog | undefined>();
  const [message, setMessage] = useState<Message | undefined>();
  const [dropKey, setDropKey] = useState<string | undefined>();
  const rows = useTreeRows(topOpen, open);
  const refresh = useRefreshGroups();
  const items = useRef(new Map<string, HTMLLIElement>());
  // The row to take the focus after the next commit. A key, not a flag: React may run an earlier
  // render's pending effect first (when the key arrives before that render's effects have run), and
  // that effect knows only the row focused then.
  const focusWanted = useRef<string | undefined>(undefined);

  const openNodes = (ids: readonly number[]) =>
    setOpen((now) => (ids.every((id) => now.has(id)) ? now : new Set([...now, ...ids])));

  // Opens the tree down to the group selected when the tree appears (a reload, a link).
  useEffect(() => {
    if (selectedGroupId === null) return;
    let live = true;
    fetchGroupPath(selectedGroupId).then(
      ({ path }) => live && openNodes(path.slice(0, -1).map((p) => p.id)),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Only the selection the tree starts with (empty dependencies): later ones are made in the
    // tree, where they are visible already.
  }, []);

  const current = rows.find((r) => r.key === focusKey) ?? rows[0]!;
  useEffect(() => {
    const key = focusWanted.current;
    if (key === undefined) return;
    focusWanted.current = undefined;
    items.current.get(key)?.focus();
  });

  const moveFocus = (row: TreeRow | undefined) => {
    if (!row) return;
    focusWanted.current = row.key;
    setFocusKey(row.key);
  };
  const setExpanded = (row: TreeRow, expanded: boolean) => {
    if (row.node === null) return setTopOpen(expanded);
    const id = row.node.id;
    setOpen((now) => {
      const next = new Set(now);
      if (expanded) next.add(id);
      else next.delete(id);
      return next;
    });
  };
  const select = (row: TreeRow) => {
    setFocusKey(row.key);
    onSelect(row.node?.id ?? null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = rows.indexOf(current);
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case 'ArrowDown':
        handled();
        return moveFocus(rows[index + 1]);
      case 'ArrowUp':
        handled();
        return moveFocus(rows[index - 1]);
      case 'Home':
        handled();
        return moveFocus(rows[0]);
      case 'End':
        handled();
        return moveFocus(rows[rows.length - 1]);
      case 'ArrowRight':
        handled();
        if (!current.expandable) return;
        if (!current.expanded) return setExpanded(current, true);
        return moveFocus(rows[index + 1]?.parentKey === current.key ? rows[index + 1] : undefined);
      case 'ArrowLeft':
        handled();
        if (current.expanded) return setExpanded(current, false);
        return moveFocus(rows.find((r) => r.key === current.parentKey));
      case 'Enter':
      case ' ':
        handled();
        return select(current);
    }
  };

  const report = (promise: Promise<unknown>, success?: string) =>
    promise.then(
      () => success !== undefined && setMessage({ ok: true, text: success }),
      (error: unknown) => setMessage({ ok: false, text: errorText(t, error) }),
    );
  const afterChange = async <T,>(work: Promise<T>): Promise<T> => {
    const result = await work;
    setMessage(undefined);
    await refresh();
    return result;
  };

  const create = (parent: DialogGroup | null, name: string) =>
    afterChange(api('POST', '/groups', { name, parentId: parent?.id ?? null })).then(() => {
      if (parent) openNodes([parent.id]);
      else setTopOpen(true);
    });
  const rename = (group: DialogGroup, name: string) =>
    afterChange(api('PATCH', `/groups/${group.id}`, { name }));
  const move = (group: DialogGroup, parentId: number | null) =>
    afterChange(api('POST', `/groups/${group.id}/move`, { parentId })).then(() => {
      if (parentId !== null) openNodes([parentId]);
    });
  const remove = (group: DialogGroup, deleteProducts: boolean) =>
    afterChange(api('DELETE', `/groups/${group.id}${deleteProducts ? '?deleteProducts=true' : ''}`)).then(
      () => {
        const parentKey = rows.find((r) => r.key === rowKey(group.id))?.parentKey ?? TOP_KEY;
        moveFocus(rows.find((r) => r.key === parentKey));
        if (selectedGroupId === group.id) onSelect(null);
      },
    );
  const assign = (group: DialogGroup, ids: number[]) =>
    report(
      afterChange(api('POST', `/groups/${group.id}/products`, { productIds: ids })),
      t('groupTree.assigned', { count: ids.length, name: group.name }),
    );

  const accepts = (row: TreeRow, event: DragEvent) => {
    if (!canEdit) return false;
    const types = event.dataTransfer.types;
    return types.includes(GROUP_DRAG_TYPE) || (row.node !== null && types.includes(PRODUCTS_DRAG_TYPE));
  };
  const onDrop = (row: TreeRow, event: DragEvent) => {
    setDropKey(undefined);
    if (!accepts(row, event)) return;
    event.preventDefault();
    const target = row.node;
    const groupId = Number(event.dataTransfer.getData(GROUP_DRAG_TYPE));
    if (groupId > 0) {
      if (groupId === target?.id) return;
      const name = rows.find((r) => r.key === rowKey(groupId))?.node?.name ?? String(groupId);
      void report(move({ id: groupId, name }, target?.id ?? null));
      return;
    }
    if (!target) return;
    let ids: unknown;
    try {
      ids = (JSON.parse(event.dataTransfer.getData(PRODUCTS_DRAG_TYPE)) as { ids?: unknown }).ids;
    } catch {
      ids = undefined;
    }
    if (Array.isArray(ids) && ids.length > 0 && ids.every((id) => Number.isSafeInteger(id)))
      void assign(target, ids as number[]);
  };

  const group = current.node;
  const closeDialog = () => {
    setDialog(undefined);
    requestAnimationFrame(() => items.current.get(focusKey)?.focus());
  };
  return (
    <Stack gap="xs" component="section" aria-label={t('groupTree.title')} miw={0}>
      {canEdit && (
        <Group gap={4} wrap="wrap" role="toolbar" aria-label={t('groupTree.actions')}>
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => setDialog({ kind: 'create', parent: group && { id: group.id, name: group.name } })}
          >
            {group ? t('groupTree.newSubgroup') : t('groupTree.newGroup')}
          </Button>
          {(['rename', 'move', 'delete'] as const).map((kind) => (
            <Button
              key={kind}
              size="compact-sm"
              variant="default"
              disabled={!group}
              onClick={() => group && setDialog({ kind, group: { id: group.id, name: group.name } })}
            >
              {t(`groupTree.${kind}Action`)}
            </Button>
          ))}
        </Group>
      )}
      {message && (
        <Alert
          color={message.ok ? 'green' : 'red'}
          role={message.ok ? 'status' : 'alert'}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setMessage(undefined)}
          p="xs"
        >
          {message.text}
        </Alert>
      )}
      <ul
        role="tree"
        aria-label={t('groupTree.title')}
        onKeyDown={onKeyDown}
        style={{ margin: 0, padding: 0 }}
      >
        {rows.map((row) => (
          <TreeItem
            key={row.key}
            row={row}
            name={row.node?.name ?? t('groupTree.allProducts')}
            count={row.node?.productCount}
            selected={(row.node?.id ?? null) === selectedGroupId}
            focused={row.key === current.key}
            dropping={row.key === dropKey}
            draggable={canEdit && row.node !== null}
            itemRef={(el) => (el ? items.current.set(row.key, el) : items.current.delete(row.key))}
            onClick={() => select(row)}
            onToggle={() => setExpanded(row, !row.expanded)}
            onDragStart={(event) => {
              event.dataTransfer.setData(GROUP_DRAG_TYPE, String(row.node!.id));
              event.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(event) => {
              if (!accepts(row, event)) return;
              event.preventDefault();
              setDropKey(row.key);
            }}
            onDragLeave={() => setDropKey((k) => (k === row.key ? undefined : k))}
            onDrop={(event) => onDrop(row, event)}
          />
        ))}
      </ul>
      {dialog?.kind === 'create' && (
        <GroupNameDialog
          title={
            dialog.parent
              ? t('groupTree.newSubgroupOf', { name: dialog.parent.name })
              : t('groupTree.newGroup')
          }
          initial=""
          submitLabel={t('groupTree.create')}
          onSubmit={(name) => create(dialog.parent, name)}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'rename' && (
        <GroupNameDialog
          title={t('groupTree.renameTitle', { name: dialog.group.name })}
          initial={dialog.group.name}
          submitLabel={t('groupTree.save')}
          onSubmit={(name) => rename(dialog.group, name)}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'move' && (
        <GroupMoveDialog
          group={dialog.group}
          onMove={(parentId) => move(dialog.group, parentId)}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'delete' && (
        <GroupDeleteDialog
          group={dialog.group}
          onDelete={(withProducts) => remove(dialog.group, withProducts)}
          onClose={closeDialog}
        />
      )}
    </Stack>
  );
}

interface TreeItemProps {
  row: TreeRow;
  name: string;
  count: number | undefined;
  selected: boolean;
  focused: boolean;
  dropping: boolean;
  draggable: boolean;
  itemRef: (el: HTMLLIElement | null) => void;
  onClick: () => void;
  onToggle: () => void;
  onDragStart: (event: DragEvent) => void;
  onDragOver: (event: DragEvent) => void;
  onDragLeave: () => void;
  onDrop: (event: DragEvent) => void;
}

/** One row: a flat list item that says its place (aria-level, -posinset, -setsize). */
function TreeItem(props: TreeItemProps) {
  const { t } = useTranslation();
  const { row, name, count, selected, focused, dropping } = props;
  const label = count === undefined ? name : `${name}, ${t('groupTree.productCount', { count })}`;
  return (
    <li
      ref={props.itemRef}
      role="treeitem"
      aria-level={row.level}
      aria-posinset={row.posInSet}
      aria-setsize={row.setSize}
      aria-expanded={row.expandable ? row.expanded : undefined}
      aria-selected={selected}
      aria-label={label}
      aria-busy={row.loading || undefined}
      tabIndex={focused ? 0 : -1}
      draggable={props.draggable}
      data-testid={row.node ? `group-${row.node.id}` : 'group-all'}
      onClick={props.onClick}
      onDoubleClick={props.onToggle}
      onDragStart={props.onDragStart}
      onDragOver={props.onDragOver}
      onDragLeave={props.onDragLeave}
      onDrop={props.onDrop}
      style={{
        listStyle: 'none',
        display: 'flex',
        alignItems: 'center',
        gap: 6,
        padding: `3px 8px 3px ${8 + (row.level - 1) * 16}px`,
        cursor: 'pointer',
        borderRadius: 4,
        background: selected ? 'var(--mantine-color-blue-light)' : undefined,
        outline: dropping ? '2px dashed var(--mantine-color-blue-filled)' : undefined,
        outlineOffset: -2,
      }}
    >
      <span
        aria-hidden
        onClick={(event) => {
          event.stopPropagation();
          props.onToggle();
        }}
        style={{ width: 14, display: 'inline-block', textAlign: 'center', flex: 'none' }}
      >
        {row.expandable ? (row.expanded ? '▾' : '▸') : ''}
      </span>
      <Text span size="sm" truncate style={{ flex: 1, minWidth: 0 }} fw={selected ? 600 : 400}>
        {name}
      </Text>
      {count !== undefined && (
        <Text span size="xs" c="dimmed" style={{ flex: 'none' }} aria-hidden>
          {count}
        </Text>
      )}
      {row.loading && <Loader size={12} aria-hidden />}
      {row.failed ? (
        <Text span size="xs" c="red" role="alert">
          {errorText(t, row.failed)}
        </Text>
      ) : null}
    </li>
  );
}
