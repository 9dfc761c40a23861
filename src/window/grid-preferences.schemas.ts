import { Type, type Static } from '@sinclair/typebox';
import { GRID_COLUMNS, GRID_SORTS } from './grid-columns.constants.js';

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
