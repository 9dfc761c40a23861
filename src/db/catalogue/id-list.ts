import { sql, type RawBuilder } from 'kysely';

/**
 * A list of integer ids bound as ONE parameter, usable after IN: no limit on the number of ids
 * and one prepared statement whatever their number. SQLite reads a JSON array with json_each;
 * PostgreSQL takes an integer array.
 */
export const sqliteIdList = (ids: readonly number[]): RawBuilder<unknown> =>
  sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

export const postgresIdList = (ids: readonly number[]): RawBuilder<unknown> =>
  sql`(SELECT unnest(CAST(${[...ids]} AS integer[])))`;

/** A list of texts as ONE bound parameter, usable after IN (the twin of the id lists above). */
export const sqliteTextList = (values: readonly string[]): RawBuilder<unknown> =>
  sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

export const postgresTextList = (values: readonly string[]): RawBuilder<unknown> =>
  sql`(SELECT unnest(CAST(${[...values]} AS text[])))`;
