import { Type, type Static } from '@sinclair/typebox';

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

const enumOf = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values] });

/**
 * The grid as a user left it (GET/PUT /ui/api/preferences/grid): the columns in their order with
 * visibility and width, and the sort. Kept per user on the server, so it follows the user to
 * another machine in team mode.
 */
export const GridPreferencesSchema = Type.Object(
  {
    columns: Type.Array(
      Type.Object(
        {
          id: enumOf(GRID_COLUMNS),
          visible: Type.Boolean(),
          width: Type.Integer({ minimum: 40, maximum: 2000 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: GRID_COLUMNS.length, uniqueItems: true },
    ),
    sort: Type.Object(
      { by: enumOf(GRID_SORTS), dir: enumOf(['asc', 'desc'] as const) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type GridPreferences = Static<typeof GridPreferencesSchema>;
