import type Database from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';

/**
 * A hot read as a statement prepared once per SQLite read-only connection, from the SQL Kysely
 * compiles for the same query, so that the two cannot drift. `compile` builds the query with
 * `sentinels` as its parameter values; the compiled parameters must be exactly those, in that
 * order (checked once, when the statement is prepared), and each call then passes the real
 * values in the same order. Returns the statement for a connection.
 */
export function readerStatement<DB>(
  compile: (db: Kysely<DB>) => CompiledQuery,
  sentinels: readonly unknown[],
  mode: 'rows' | 'raw' | 'pluck' = 'rows',
): (db: Kysely<DB>, reader: Database.Database) => Database.Statement {
  const prepared = new WeakMap<Database.Database, Database.Statement>();
  return (db, reader) => {
    let statement = prepared.get(reader);
    if (statement) return statement;
    const { sql, parameters } = compile(db);
    if (parameters.length !== sentinels.length || parameters.some((value, i) => value !== sentinels[i])) {
      throw new Error(
        `parameters ${JSON.stringify(parameters)} are not ${JSON.stringify(sentinels)}: ${sql}`,
      );
    }
    statement = reader.prepare(sql);
    if (mode === 'raw') statement.raw();
    if (mode === 'pluck') statement.pluck();
    prepared.set(reader, statement);
    return statement;
  };
}
