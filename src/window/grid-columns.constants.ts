/**
 * The grid's columns and sorts as values the front end imports at run time. Kept apart from
 * grid-preferences.schemas.ts, whose TypeBox import would otherwise ship TypeBox (140 kB before
 * minification) in the window's bundle.
 */

/** The grid's columns, in the order a new user sees them. */
export const GRID_COLUMNS = [
  'id',
  'supplierPid',
  'name',
  'ean',
  'manufacturerPid',
  'variantCount',
  'group',
  'updatedAt',
] as const;
export type GridColumnId = (typeof GRID_COLUMNS)[number];

/** The columns the grid sorts by (a keyset cursor and an index each). */
export const GRID_SORTS = ['id', 'supplierPid', 'name', 'updated'] as const;
export type GridSortBy = (typeof GRID_SORTS)[number];
