import { sql, type RawBuilder } from 'kysely';

/**
 * JSON documents written by PostgreSQL as compact text (PostgreSQL dialect only), byte for byte
 * what SQLite's sqlite-json-text.ts and JSON.stringify write: a client that compares or hashes
 * bodies must not see a difference between backends. json_build_object puts spaces around every
 * colon and json_agg a space after every comma; row_to_json writes a row compactly, in column
 * order, and embeds json columns as they are, so objects are rows with quoted aliases and arrays
 * are string_agg of them.
 */

/** A JSON object (as json) of one row of `select`, whose aliases are the keys; NULL when it yields no row. */
export function pgJsonRow(select: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(SELECT row_to_json(r) FROM (${select}) r)`;
}

/** The rows of a JSON array: `from` (tables and joins), filtered by `where`, in `orderBy`'s order. */
export interface PgJsonRows {
  readonly from: RawBuilder<unknown>;
  readonly where: RawBuilder<unknown>;
  readonly orderBy: RawBuilder<unknown>;
}

/**
 * A JSON array (as json) of one object per row, of the columns of `item` (a select without FROM
 * whose aliases are the keys and which names the rows' tables); `[]` for no rows.
 */
export function pgJsonArray(item: RawBuilder<unknown>, rows: PgJsonRows): RawBuilder<unknown> {
  return sql`(SELECT ('[' || COALESCE(string_agg(row_to_json(i)::text, ',' ORDER BY ${rows.orderBy}), '') || ']')::json
    FROM ${rows.from} CROSS JOIN LATERAL (${item}) i WHERE ${rows.where})`;
}
