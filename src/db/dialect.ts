import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/** The two storage backends: SQLite (embedded, the default) and PostgreSQL (team mode). */
export type Dialect = 'sqlite' | 'postgres';

/**
 * The dialect of a database or of a transaction on it. Repositories take a Kysely instance
 * and ask it, so that their signatures stay the same on both backends; the SQL that differs
 * lives in small modules named `*.sqlite.ts` and `*.postgres.ts`.
 */
export function dialectOf(db: AnyKysely): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Any Kysely instance or transaction, whatever its tables. */
export type AnyKysely = Pick<Kysely<never>, 'getExecutor'>;

/**
 * A list of integer ids bound as ONE parameter, usable after IN: no limit on the number of ids
 * and one prepared statement whatever their number. SQLite reads a JSON array with json_each;
 * PostgreSQL takes an integer array.
 */
export function idList(db: AnyKysely, ids: readonly number[]): RawBuilder<unknown> {
  return dialectOf(db) === 'postgres'
    ? sql`(SELECT unnest(CAST(${[...ids]} AS integer[])))`
    : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}
