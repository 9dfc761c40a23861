import { Alert, Box, Text, UnstyledButton } from '@mantine/core';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridRow } from '../../../window/catalogue-api.types.js';
import { errorText } from '../../error-text.js';
import { COLUMN_SPECS, type GridColumnId, type GridPreferences } from './grid-columns.js';
import { PRODUCTS_DRAG_TYPE } from './group-tree.js';
import type { GridSelection } from './grid-selection.js';
import { RowMenu, type RowMenuPlace } from './row-menu.js';
import { useGridRows, type RowRange } from './use-grid-rows.js';
import classes from './product-grid.module.css';

const ROW_HEIGHT = 34;

interface Props {
  params: URLSearchParams;
  preferences: GridPreferences;
  onPreferences: (next: GridPreferences) => void;
  /** The product open in the editor (highlighted). */
  openId: number | null;
  onOpen: (id: number) => void;
  /** Reports the number of matches once known (the toolbar shows it). */
  onCount: (count: number | undefined) => void;
  canEdit: boolean;
  onNew: () => void;
  onDeleted: (id: number) => void;
  /** The rows selected (lifted: the mass edit works on them). */
  selection: GridSelection;
  onSelect: (ids: ReadonlySet<number>) => void;
  /** Offered in a row's menu while something is selected (a user who may edit). */
  onMassEdit?: () => void;
}

/**
 * The product grid: every product of the filtered list in a virtualised grid (only the rows in
 * view are in the DOM), fetched in blocks as they come into view; the scrollbar stands for the
 * whole count, so dragging it anywhere shows the rows there. Keyboard: arrows, Page Up/Down,
 * Home/End move; Enter opens; Space selects; Shift extends; Ctrl/Cmd toggles.
 */
export function ProductGrid(props: Props) {
  const { params, preferences, onPreferences, openId, onOpen, onCount } = props;
  const { t, i18n } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState<RowRange | null>(null);
  const { count, rowAt, error } = useGridRows(params, range);
  const total = count ?? 0;
  const [active, setActive] = useState(0);
  const [anchor, setAnchor] = useState(0);
  const selected = props.selection.ids;
  const allMatching = props.selection.allMatching;
  const setSelected = props.onSelect;
  const [menu, setMenu] = useState<RowMenuPlace | null>(null);
  const paramsKey = params.toString();

  useEffect(() => onCount(count), [count, onCount]);
  // Another search or filter: back to the top, nothing selected.
  useEffect(() => {
    setActive(0);
    setAnchor(0);
    setSelected(new Set());
    scrollRef.current?.scrollTo({ top: 0 });
  }, [paramsKey]);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index;
  const last = items[items.length - 1]?.index;
  useEffect(() => {
    setRange(first === undefined || last === undefined ? null : { start: first, end: last });
  }, [first, last]);

  const columns = useMemo<ColumnDef<GridRow>[]>(
    () => preferences.columns.map((c) => ({ id: c.id, size: c.width, minSize: 40, maxSize: 2000 })),
    [preferences.columns],
  );
  const sizing = useMemo<ColumnSizingState>(
    () => Object.fromEntries(preferences.columns.map((c) => [c.id, c.width])),
    [preferences.columns],
  );
  const table = useReactTable<GridRow>({
    data: [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onEnd',
    state: {
      columnSizing: sizing,
      columnVisibility: Object.fromEntries(preferences.columns.map((c) => [c.id, c.visible])),
      columnOrder: preferences.columns.map((c) => c.id),
    },
    onColumnSizingChange: (update) => {
      const next = typeof update === 'function' ? update(sizing) : update;
      onPreferences({
        ...preferences,
        columns: preferences.columns.map((c) => ({ ...c, width: Math.round(next[c.id] ?? c.width) })),
      });
    },
  });
  const visible = table.getVisibleLeafColumns();
  const width = visible.reduce((sum, c) => sum + c.getSize(), 0);

  const moveTo = (index: number, extend: boolean) => {
    const next = Math.max(0, Math.min(total - 1, index));
    setActive(next);
    if (extend) selectRange(anchor, next);
    else setAnchor(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const selectRange = (from: number, to: number) => {
    const ids = new Set<number>();
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const row = rowAt(i);
      if (row) ids.add(row.id);
    }
    setSelected(ids);
  };
  const toggle = (index: number) => {
    const row = rowAt(index);
    if (!row) return;
    const next = new Set(allMatching ? [] : selected);
    if (next.has(row.id)) next.delete(row.id);
    else next.add(row.id);
    setSelected(next);
    setAnchor(index);
  };
  const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0) return;
    const extend = event.shiftKey;
    const moves: Record<string, () => number> = {
      ArrowDown: () => active + 1,
      ArrowUp: () => active - 1,
      PageDown: () => active + page,
      PageUp: () => active - page,
      Home: () => 0,
      End: () => total - 1,
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      moveTo(move(), extend);
    } else if (event.key === 'Enter') {
      const row = rowAt(active);
      if (row) {
        event.preventDefault();
        onOpen(row.id);
      }
    } else if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
      const row = rowAt(active);
      const box = document.getElementById(`grid-row-${active}`)?.getBoundingClientRect();
      if (row && box) {
        event.preventDefault();
        setMenu({ row, x: box.left + 24, y: box.bottom });
      }
    } else if (event.key === ' ') {
      event.preventDefault();
      if (extend) selectRange(anchor, active);
      else toggle(active);
    }
  };
  const onRowClick = (event: MouseEvent, index: number) => {
    setActive(index);
    if (event.shiftKey) return selectRange(anchor, index);
    if (event.ctrlKey || event.metaKey) return toggle(index);
    setAnchor(index);
    const row = rowAt(index);
    setSelected(row ? new Set([row.id]) : new Set());
  };

  const sort = preferences.sort;
  const onSort = (by: NonNullable<(typeof COLUMN_SPECS)[GridColumnId]['sort']>) =>
    onPreferences({
      ...preferences,
      sort: { by, dir: sort.by === by && sort.dir === 'asc' ? 'desc' : 'asc' },
    });

  return (
    <Box className={classes.wrap}>
      {error !== null && (
        <Alert color="red" role="alert" mb="xs">
          {errorText(t, error)}
        </Alert>
      )}
      <div
        ref={scrollRef}
        role="grid"
        aria-label={t('grid.label')}
        aria-rowcount={total + 1}
        aria-colcount={visible.length}
        aria-multiselectable
        // Only a row in the DOM can be named: scrolled away, the grid itself has the focus.
        aria-activedescendant={items.some((item) => item.index === active) ? `grid-row-${active}` : undefined}
        tabIndex={0}
        className={classes.scroller}
        onKeyDown={onKeyDown}
        data-testid="product-grid"
      >
        <div role="rowgroup" className={classes.head} style={{ width }}>
          <div role="row" aria-rowindex={1} className={classes.row}>
            {table.getFlatHeaders().map((header) => {
              if (!header.column.getIsVisible()) return null;
              const id = header.column.id as GridColumnId;
              const spec = COLUMN_SPECS[id];
              const sorted = spec.sort !== undefined && sort.by === spec.sort;
              return (
                <div
                  key={header.id}
                  role="columnheader"
                  aria-sort={sorted ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  className={classes.headerCell}
                  style={{ width: header.getSize() }}
                >
                  {spec.sort ? (
                    <UnstyledButton
                      className={classes.sortButton}
                      onClick={() => onSort(spec.sort!)}
                      title={t('grid.sortBy', { column: t(`grid.column.${id}`) })}
                    >
                      {t(`grid.column.${id}`)}
                      <span aria-hidden>{sorted ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </UnstyledButton>
                  ) : (
                    <span className={classes.headerText}>{t(`grid.column.${id}`)}</span>
                  )}
                  <div
                    className={classes.resizer}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    aria-hidden
                  />
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), width, position: 'relative' }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            const isSelected = allMatching || (row !== undefined && selected.has(row.id));
            return (
              <div
                key={item.key}
                id={`grid-row-${item.index}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                data-active={item.index === active || undefined}
                data-open={(row && row.id === openId) || undefined}
                className={`${classes.row} ${classes.bodyRow}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={(event) => onRowClick(event, item.index)}
                onDoubleClick={() => row && onOpen(row.id)}
                onContextMenu={(event) => {
                  if (!row) return;
                  event.preventDefault();
                  setActive(item.index);
                  setMenu({ row, x: event.clientX, y: event.clientY });
                }}
                draggable={row !== undefined}
                onDragStart={(event) => {
                  if (!row) return;
                  const ids = selected.has(row.id) ? [...selected] : [row.id];
                  event.dataTransfer.setData(PRODUCTS_DRAG_TYPE, JSON.stringify({ ids }));
                  event.dataTransfer.setData('text/plain', ids.join(','));
                  event.dataTransfer.effectAllowed = 'copy';
                }}
              >
                {visible.map((column) => {
                  const spec = COLUMN_SPECS[column.id as GridColumnId];
                  return (
                    <div
                      key={column.id}
                      role="gridcell"
                      className={classes.cell}
                      data-numeric={spec.numeric || undefined}
                      style={{ width: column.getSize() }}
                    >
                      {row ? spec.text(row, i18n.language) : ''}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
        <RowMenu
          place={menu}
          canEdit={props.canEdit}
          onClose={() => {
            setMenu(null);
            scrollRef.current?.focus();
          }}
          onOpen={onOpen}
          onNew={props.onNew}
          onDeleted={props.onDeleted}
          onMassEdit={props.onMassEdit}
        />
        {count === 0 && (
          <Text c="dimmed" p="md" data-testid="grid-empty">
            {t('grid.empty')}
          </Text>
        )}
      </div>
    </Box>
  );
}
