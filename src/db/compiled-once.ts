import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';

interface Compiled {
  sql: string;
  /** For each parameter of the compiled SQL, the index of the value a call passes for it, or -1 for a constant. */
  positions: number[];
  /** The compiled parameters: the constants of the query (`revision + 1`) are taken from here. */
  parameters: readonly unknown[];
}

/**
 * A hot write's query built and compiled by Kysely once per database, then run with each call's
 * values through the same executor as any query: the connection, the caller's transaction, the
 * plugins (PostgreSQL's row-change detector) and the driver's statement cache (SQLite prepares the
 * SQL once per connection: db/sqlite.ts) stay as they were. What no longer happens per request is
 * building the operation tree and compiling it, the JavaScript most of a single write's statements
 * cost in pim before (docs/performance.md, "2026-11-29: single writes on SQLite").
 *
 * `build` compiles the query made with `sentinels` in place of its values (it never sees a call's
 * values, so the SQL cannot depend on them); each sentinel must be among the compiled parameters
 * (checked once, when compiled), a call passes its values in the sentinels' order, and a sentinel
 * may stand for several parameters (a value bound twice). Other parameters are the query's own
 * constants (`revision + 1`) and are passed as compiled. Compiled per Kysely instance (its adapter,
 * which its transactions share), so per dialect.
 */
export function compiledOnce<DB, R>(
  build: (db: Kysely<DB>, sentinels: readonly unknown[]) => CompiledQuery<R>,
  sentinels: readonly unknown[],
): (db: Kysely<DB>, values: readonly unknown[]) => Promise<QueryResult<R>> {
  const compiled = new WeakMap<object, Compiled>();
  const compile = (db: Kysely<DB>): Compiled => {
    const { sql, parameters } = build(db, sentinels);
    const positions = parameters.map((parameter) => sentinels.indexOf(parameter));
    if (sentinels.some((_, i) => !positions.includes(i))) {
      throw new Error(
        `parameters ${JSON.stringify(parameters)} lack some of ${JSON.stringify(sentinels)}: ${sql}`,
      );
    }
    return { sql, positions, parameters };
  };
  return (db, values) => {
    const key = db.getExecutor().adapter;
    let query = compiled.get(key);
    if (!query) {
      query = compile(db);
      compiled.set(key, query);
    }
    const { positions, parameters: compiledParameters } = query;
    const parameters = positions.map((position, i) =>
      position < 0 ? compiledParameters[i] : values[position],
    );
    return db.executeQuery(CompiledQuery.raw(query.sql, parameters) as CompiledQuery<R>);
  };
}
