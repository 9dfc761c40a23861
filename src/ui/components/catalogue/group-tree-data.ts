import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type {
  GroupChildrenDto,
  GroupDeletePreview,
  GroupListDto,
  GroupNode,
  GroupPathDto,
} from '../../../window/group-tree-api.types.js';
import { api } from '../../api.js';
import { childrenPath } from './group-tree-paths.js';

export type { GroupDeletePreview, GroupNode };

/**
 * Every query of the tree starts with 'groups': a change of the catalogue pushed by the server
 * invalidates them all, and each open level reloads while the tree keeps which nodes are open.
 */
export const groupKeys = {
  all: ['groups'] as const,
  children: (parentId: number | null) => ['groups', 'children', parentId] as const,
  list: ['groups', 'list'] as const,
  preview: (id: number) => ['groups', 'delete-preview', id] as const,
};

/** One visible row of the tree: the "All products" entry (node null) or a group. */
export interface TreeRow {
  key: string;
  node: GroupNode | null;
  level: number;
  /** The row's parent row key; undefined for the top entry. */
  parentKey: string | undefined;
  posInSet: number;
  setSize: number;
  expanded: boolean;
  /** Whether it can open: it has children (the top entry always has). */
  expandable: boolean;
  /** Its children are being read (opened, no answer yet). */
  loading: boolean;
  failed: unknown;
}

export const TOP_KEY = 'all';

export function rowKey(id: number | null): string {
  return id === null ? TOP_KEY : `g${id}`;
}

/**
 * The rows the tree shows: the top entry, and under every open node its children, read level by
 * level (one query per open node, keyed by the parent).
 */
export function useTreeRows(topOpen: boolean, open: ReadonlySet<number>): TreeRow[] {
  const parents = useMemo(() => [null, ...open], [open]);
  const levels = useQueries({
    queries: parents.map((parentId) => ({
      queryKey: groupKeys.children(parentId),
      queryFn: () => api<GroupChildrenDto>('GET', childrenPath(parentId)).then((d) => d.groups),
      enabled: parentId !== null || topOpen,
    })),
  });
  // Computed each render: a few hundred visible rows at most, and the levels' states change often.
  {
    const byParent = new Map<number | null, (typeof levels)[number]>();
    parents.forEach((parentId, i) => byParent.set(parentId, levels[i]!));
    const rows: TreeRow[] = [];
    const top = byParent.get(null)!;
    rows.push({
      key: TOP_KEY,
      node: null,
      level: 1,
      parentKey: undefined,
      posInSet: 1,
      setSize: 1,
      expanded: topOpen,
      expandable: true,
      loading: topOpen && top.isPending,
      failed: topOpen ? top.error : null,
    });
    // Depth first without recursion: the stack holds the rows still to place, the next on top.
    const stack: { node: GroupNode; level: number; posInSet: number; setSize: number }[] = [];
    // A group moved elsewhere shows in the answers of two levels until both have reloaded: it
    // stays where the latest answer puts it, never twice (two rows of one key confuse React).
    const owner = new Map<number, { parentId: number | null; at: number }>();
    parents.forEach((parentId, i) => {
      const at = levels[i]!.dataUpdatedAt;
      for (const node of levels[i]!.data ?? []) {
        const known = owner.get(node.id);
        if (!known || known.at < at) owner.set(node.id, { parentId, at });
      }
    });
    const pushLevel = (parentId: number | null, level: number) => {
      const list = (byParent.get(parentId)?.data ?? []).filter((n) => owner.get(n.id)?.parentId === parentId);
      for (let i = list.length - 1; i >= 0; i--)
        stack.push({ node: list[i]!, level, posInSet: i + 1, setSize: list.length });
    };
    if (topOpen) pushLevel(null, 2);
    while (stack.length > 0) {
      const { node, level, posInSet, setSize } = stack.pop()!;
      const isOpen = open.has(node.id) && node.childCount > 0;
      const level_ = byParent.get(node.id);
      rows.push({
        key: rowKey(node.id),
        node,
        level,
        parentKey: rowKey(node.parentId),
        posInSet,
        setSize,
        expanded: isOpen,
        expandable: node.childCount > 0,
        loading: isOpen && (level_?.isPending ?? true),
        failed: isOpen ? level_?.error : null,
      });
      if (isOpen) pushLevel(node.id, level + 1);
    }
    return rows;
  }
}

/** Every group with its path of names ("Tools › Drills"), for picking a target by name. */
export function useGroupChoices(enabled: boolean): { value: string; label: string }[] | undefined {
  const list = useQuery({
    queryKey: groupKeys.list,
    queryFn: () => api<GroupListDto>('GET', '/groups').then((d) => d.groups),
    enabled,
  });
  return useMemo(() => {
    if (!list.data) return undefined;
    const byId = new Map(list.data.map((g) => [g.id, g]));
    return list.data.map((g) => {
      const names: string[] = [];
      // Bounded by the number of groups: a cycle cannot occur (the server refuses it), but never loop.
      for (let at = g, steps = 0; at && steps <= list.data.length; steps++) {
        names.unshift(at.name);
        at = at.parentGroupId === null ? undefined! : byId.get(at.parentGroupId)!;
      }
      return { value: String(g.id), label: names.join(' › ') };
    });
  }, [list.data]);
}

/** The way down to a group, to open the tree to it (after a reload, a link). */
export function fetchGroupPath(id: number): Promise<GroupPathDto> {
  return api<GroupPathDto>('GET', `/groups/${id}/path`);
}

/** Reloads every group query (open levels, the list, previews) after a change made here. */
export function useRefreshGroups(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: groupKeys.all }), [queryClient]);
}
