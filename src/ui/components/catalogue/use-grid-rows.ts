import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback } from 'react';
import type { GridCount, GridRow, GridRowsPage } from '../../../window/catalogue-api.types.js';
import { api } from '../../api.js';
import { BLOCK, blockPath, countPath } from './grid-query.js';
/** The grid's queries: all under 'grid', which a change of the catalogue invalidates. */
export const gridKeys = {
  count: (key: string) => ['grid', key, 'count'] as const,
  block: (key: string, block: number) => ['grid', key, 'block', block] as const,
};

/** How long the visible range must rest before its missing blocks are fetched (a dragged scrollbar passes thousands of rows). */
const SETTLE_MS = 40;

export interface RowRange {
  start: number;
  end: number;
}

function blocksOf(range: RowRange | null): number[] {
  if (!range || range.end < range.start) return [];
  const blocks = [];
  for (let b = Math.floor(range.start / BLOCK); b <= Math.floor(range.end / BLOCK); b++) blocks.push(b);
  return blocks;
}

/**
 * The grid's rows as the server pages them: the count of the whole filtered list (the scrollbar
 * stands for it) and blocks of 100 rows fetched as they come into view. A block follows its
 * predecessor's cursor (keyset) when that is loaded, else it asks for its position (`at`: one
 * index probe on the server, never an OFFSET page). Blocks stay cached until the catalogue
 * changes (the window's `catalogue` event invalidates every query under 'grid').
 */
export function useGridRows(params: URLSearchParams, range: RowRange | null) {
  const key = params.toString();
  const queryClient = useQueryClient();
  const count = useQuery({
    queryKey: gridKeys.count(key),
    queryFn: () => api<GridCount>('GET', countPath(key)),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
  const rangeKey = range ? `${range.start}-${range.end}` : '';
  const [settledKey] = useDebouncedValue(rangeKey, SETTLE_MS);
  const settled = new Set(blocksOf(parseRange(settledKey)));
  // The first block is asked for with the count, not after it: the grid opens on it.
  const wanted = range ? blocksOf(range) : [0];
  const blocks = useQueries({
    queries: wanted.map((block) => ({
      queryKey: gridKeys.block(key, block),
      queryFn: async () => {
        const before = queryClient.getQueryData<GridRowsPage>(gridKeys.block(key, block - 1));
        const after = block > 0 && before?.rows.length === BLOCK ? before.next : null;
        return api<GridRowsPage>('GET', blockPath(key, block, after));
      },
      // Cached blocks show at once; missing ones are fetched once the range rests.
      enabled: settled.has(block) || (range === null && block === 0),
      staleTime: Infinity,
    })),
  });
  const rowAt = useCallback(
    (index: number): GridRow | undefined =>
      queryClient.getQueryData<GridRowsPage>(gridKeys.block(key, Math.floor(index / BLOCK)))?.rows[
        index % BLOCK
      ],
    // The blocks' data: a new block loaded is a new rowAt, so the rows render again.
    [queryClient, key, blocks.map((b) => b.dataUpdatedAt).join()],
  );
  const error = count.error ?? blocks.find((b) => b.error)?.error ?? null;
  return { count: count.data?.count, countPending: count.isPending, rowAt, error };
}

function parseRange(key: string): RowRange | null {
  if (!key) return null;
  const [start, end] = key.split('-').map(Number);
  return { start: start!, end: end! };
}
