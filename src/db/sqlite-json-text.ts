import { sql, type RawBuilder } from 'kysely';

/**
 * JSON documents written by SQLite as text, by concatenation (SQLite dialect only). Every value
 * passed in must already be JSON text: `jsonValue` for a column, `json_object(...)` for a flat
 * object, or a `jsonArray`/`jsonObject` built here.
 *
 * Why not json_object with json_group_array: a JSON text coming out of a subquery loses its JSON
 * subtype and has to pass through json(), which parses it again at every level it is nested
 * in (the product sheet: 58 µs, of which about 12 µs were such parsing; 46 µs by concatenation).
 * And why not `json_group_array(... ORDER BY ...)`: SQLite sorts an aggregate's ORDER BY in an
 * ephemeral table allocated and freed at every call; glibc then trims the heap and faults the
 * pages back in, which made the sheet take 130 to 260 µs in some processes (8 million page
 * faults per 160,000 calls) depending on their heap layout. An ordered subquery is read in order
 * instead (SQLite never flattens an ORDER BY subquery into an aggregate, so group_concat meets
 * the rows in that order) and its ORDER BY follows an index wherever one exists. Tests compare
 * the documents and their orders with the single services' answers.
 */

/** A scalar column or expression as JSON text: strings quoted and escaped, numbers as they are, NULL as null. */
export function jsonValue(value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`json_quote(${value})`;
}

/** A JSON object from entries whose values are JSON text (see above); keys are written as given. */
export function jsonObject(entries: readonly (readonly [string, RawBuilder<unknown>])[]): RawBuilder<string> {
  const parts = entries.map(
    ([key, value], i) => sql`${sql.lit(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)} || ${value}`,
  );
  return sql<string>`(${sql.join(parts, sql` || `)} || '}')`;
}

/**
 * A JSON array of `item` (JSON text) for each row of `rows`, in the order of its ORDER BY;
 * `alias` names the rows inside `item` and must not be used by an enclosing query.
 */
export function jsonArray(
  alias: string,
  item: RawBuilder<unknown>,
  rows: RawBuilder<unknown>,
): RawBuilder<string> {
  return sql<string>`(SELECT '[' || COALESCE(group_concat(${item}, ','), '') || ']'
    FROM (${rows}) AS ${sql.id(alias)})`;
}
