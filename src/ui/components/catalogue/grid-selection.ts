import type { SelectionView } from '../../../window/mass-edit-api.types.js';

/** The catalogue state's filters (CatalogueState has them; named here so that this module stands alone). */
export interface GridFilters {
  q: string;
  groupId: number | null;
  subgroups: boolean;
  mainOnly: boolean;
  updatedSince: string;
  textLang: string;
  text: 'has' | 'lacks' | '';
  ftidref: string;
  feature: 'has' | 'lacks' | '';
}

/** What the grid has selected: rows picked one by one, or every product its filters match. */
export interface GridSelection {
  ids: ReadonlySet<number>;
  /** "Select all N matching": the server resolves the filters; the browser never loads the ids. */
  allMatching: boolean;
}

export const NOTHING_SELECTED: GridSelection = { ids: new Set(), allMatching: false };

/** How many products the selection names (the grid's count for all matching). */
export function selectionSize(selection: GridSelection, count: number | undefined): number {
  return selection.allMatching ? (count ?? 0) : selection.ids.size;
}

/**
 * The selection as the mass edit takes it: the picked ids, or the grid's filters exactly as the
 * grid's rows endpoint is asked for them (the same search, group, subgroups and filters), so that
 * "all matching" is the products the grid counts. The sort and the name column's language select
 * nothing and are left out.
 */
export function selectionOf(
  state: GridFilters,
  selection: GridSelection,
  includeVariants: boolean,
): SelectionView {
  const variants = includeVariants ? { includeVariants: true } : {};
  if (!selection.allMatching) return { ids: [...selection.ids].sort((a, b) => a - b), ...variants };
  const select: SelectionView = { mainOnly: state.mainOnly, ...variants };
  if (state.q) select.q = state.q;
  if (state.groupId !== null) {
    select.groupId = state.groupId;
    if (state.subgroups) select.includeSubgroups = true;
  }
  if (state.updatedSince) select.updatedSince = state.updatedSince;
  if (state.textLang && state.text) {
    select.textLang = state.textLang;
    select.text = state.text;
  }
  if (state.ftidref && state.feature) {
    select.ftidref = state.ftidref;
    select.feature = state.feature;
  }
  return select;
}
