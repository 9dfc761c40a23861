import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import { pgConnectionString } from './postgres-url.js';
import { discardingTimedOut } from './postgres-pool.js';

export interface PostgresHandle<DB> {
  db: Kysely<DB>;
  pool: pg.Pool;
  /** The database's URL (migrations open connections of their own to it). */
  url: string;
  /** The schema every connection of this handle works in (its search_path). */
  schema: string;
  close(): Promise<void>;
}

/** How long a request waits for a connection before it is answered 503 (issue: never a hang). */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * The longest the client waits for the server's answer to one statement before it takes the
 * server for unreachable (503 DATABASE_UNAVAILABLE): a server that stops answering without
 * closing anything (frozen, or cut off without a reset) is noticed only this way. It bounds a
 * statement, not a request: the full list reads 1,000 products per statement and a bulk call
 * one document after the other. pim's slowest statement in a request, deleting a group with its
 * products, took 1.1 s for 20,000 products with their 1 million texts and feature values on the
 * 2-core test machine; a wait for a lock ends sooner, at the workspace pool's lock_timeout
 * (db/lock-wait.ts, 5 s: 503 DATABASE_BUSY). 15 s leaves room for a loaded server, and keeps a stalled request well within the
 * patience of an HTTP client (and of a proxy's 60 s read timeout).
 */
export const QUERY_TIMEOUT_MS = 15_000;

/**
 * Migrations may rewrite or index a whole catalogue (millions of rows): minutes, not seconds.
 * They run at start and when a workspace is opened, on connections of their own.
 */
export const MIGRATION_QUERY_TIMEOUT_MS = 30 * 60_000;

/** Schema names pim creates: lower-case letters, digits and `_`, so they need no quoting rules. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
  return schema;
}

// COUNT(*) and other bigint results come as strings by default; pim's numbers fit a double.
const INT8 = 20;
// json columns hold JSON text written to be sent as it is (feature values and names): they come
// as that text, as from SQLite, not parsed into objects.
const JSON_OID = 114;
const asText = (value: string) => value;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') return (value: string) => Number(value);
    if (oid === JSON_OID && format !== 'binary') return asText;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * A pool of connections to one schema of a PostgreSQL database. The schema is the connection's
 * search_path, so that every query, Kysely-built or raw, is written without a schema name and
 * reads the same on SQLite. Connections are opened lazily: an unreachable server is noticed by
 * the first query, within CONNECT_TIMEOUT_MS.
 */
export function openPostgres<DB>(
  url: string,
  schema: string,
  options: { max?: number; applicationName?: string; queryTimeoutMs?: number; lockTimeoutMs?: number } = {},
): PostgresHandle<DB> {
  checkSchemaName(schema);
  // lock_timeout: a statement that waits longer for a lock another transaction holds fails with
  // 55P03 (503 DATABASE_BUSY, its transaction rolled back) instead of running into the query
  // timeout, which would call the server unreachable.
  const lockTimeout = options.lockTimeoutMs === undefined ? '' : ` -c lock_timeout=${options.lockTimeoutMs}`;
  const pool = new pg.Pool({
    connectionString: pgConnectionString(url),
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Idle connections go soon: several instances (and every open workspace) share the server's
    // connection limit (100 by default).
    idleTimeoutMillis: 5_000,
    keepAlive: true,
    // A server that stops answering mid-query (a network cut without a reset) must not hold a
    // request forever: the query fails, the request answers 503 and the connection is dropped.
    query_timeout: options.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
    application_name: options.applicationName ?? 'pim',
    options: `-c search_path=${schema}${lockTimeout}`,
    types,
  });
  // A connection that breaks while idle in the pool (server restart) must not crash the process;
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => undefined);
  // Likewise a connection that breaks while a query holds it: the query fails with the error
  // (answered 503); without a listener the client's 'error' event would end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: discardingTimedOut(pool) }) });
  let closed = false;
  return {
    db,
    pool,
    url,
    schema,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * Names a schema may have recorded in kysely_migration before the PostgreSQL lists took SQLite's
 * names: each old name with the names of today's list it stands for, in order (the step it ran,
 * after the no-op steps before it that an old schema never recorded).
 */
export type LegacyMigrationNames = Readonly<Record<string, readonly string[]>>;

/**
 * Creates the handle's schema if needed and applies the migrations not yet recorded in it, after
 * renaming the ones recorded under a legacy name (`legacyNames`). Several instances starting at
 * the same moment take turns: the whole run holds a session advisory lock (keyed by the schema's
 * name), so the second one finds the schema and its migrations applied. It runs on connections of
 * its own, whose statements may take MIGRATION_QUERY_TIMEOUT_MS (the wait for another instance's
 * migrations included): the handle's are for requests.
 */
export async function migratePostgres<DB>(
  target: PostgresHandle<DB>,
  migrations: Record<string, Migration>,
  legacyNames: LegacyMigrationNames = {},
): Promise<void> {
  checkLegacyNames(migrations, legacyNames);
  if (await upToDate(target, migrations)) return;
  const handle = openPostgres<DB>(target.url, target.schema, {
    max: 2,
    applicationName: 'pim migrations',
    queryTimeoutMs: MIGRATION_QUERY_TIMEOUT_MS,
  });
  try {
    await migrate(handle, migrations, legacyNames);
  } finally {
    await handle.close();
  }
}

/**
 * Runs `work` while this process holds the PostgreSQL advisory lock named `name` (on one pooled
 * connection, for the session): instances sharing the database take their turns. Give it a
 * handle of its own with a long query timeout (the wait for the lock is a query). A connection
 * whose lock or unlock failed is discarded, not returned to the pool: the lock may be held, or
 * its statement still running, on the server.
 */
export async function withAdvisoryLock<DB, T>(
  handle: PostgresHandle<DB>,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const client = await handle.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).then(
      () => client.release(),
      (unlockError: Error) => client.release(unlockError),
    );
    throw error;
  }
  try {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  client.release();
  return result;
}

/** A legacy name is no longer in the list, and it stands for names of the list, each once. */
function checkLegacyNames(migrations: Record<string, Migration>, legacyNames: LegacyMigrationNames): void {
  const targets = Object.values(legacyNames).flat();
  const wrong =
    Object.keys(legacyNames).find((name) => name in migrations) ??
    targets.find((name, i) => !(name in migrations) || targets.indexOf(name) !== i);
  if (wrong !== undefined) throw new Error(`legacy migration names do not fit the migrations: ${wrong}`);
}

/**
 * Renames the migrations recorded under a legacy name, in one transaction, before Kysely reads
 * them: it refuses a recorded name missing from the list, and recorded names that are not the
 * first of the sorted list. The rows an old row stands for keep its timestamp, as Kysely orders
 * recorded migrations by timestamp, then name. A schema on today's names, or one without
 * kysely_migration (new), is left as it is.
 */
/**
 * Whether the schema has run exactly these migrations, asked on the caller's own pool: every start,
 * CLI command and workspace opening asks, and almost always the answer is yes. Kysely's Migrator
 * would answer the same after a pool of its own, an advisory lock and an introspection of every
 * table of the database (on the 2-core machine a few hundred ms of each `pim` command in team
 * mode). Anything else (a schema not yet migrated, legacy names to rename, migrations of a newer
 * pim) takes the Migrator's path, with its locking and its errors.
 */
async function upToDate<DB>(
  target: PostgresHandle<DB>,
  migrations: Record<string, Migration>,
): Promise<boolean> {
  const db = target.db as unknown as Kysely<unknown>;
  const table = `${target.schema}.kysely_migration`;
  const { rows: found } = await sql<{ t: string | null }>`SELECT to_regclass(${table})::text AS t`.execute(
    db,
  );
  if (!found[0]?.t) return false;
  const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(table)}`.execute(db);
  const known = new Set(Object.keys(migrations));
  return rows.length === known.size && rows.every((r) => known.has(r.name));
}

async function renameLegacyMigrations<DB>(
  handle: PostgresHandle<DB>,
  legacyNames: LegacyMigrationNames,
): Promise<void> {
  const legacy = Object.keys(legacyNames);
  if (legacy.length === 0) return;
  await handle.db.transaction().execute(async (trx) => {
    const { rows: tables } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM pg_tables
      WHERE schemaname = ${handle.schema} AND tablename = 'kysely_migration'`.execute(trx);
    if (Number(tables[0]?.n ?? 0) === 0) return;
    const table = sql.table(`${handle.schema}.kysely_migration`);
    const { rows } = await sql<{ name: string; timestamp: string }>`
      DELETE FROM ${table} WHERE name IN (${sql.join(legacy)}) RETURNING name, "timestamp"`.execute(trx);
    for (const row of rows) {
      for (const name of legacyNames[row.name] ?? []) {
        await sql`INSERT INTO ${table} (name, "timestamp") VALUES (${name}, ${row.timestamp})`.execute(trx);
      }
    }
  });
}

async function migrate<DB>(
  handle: PostgresHandle<DB>,
  migrations: Record<string, Migration>,
  legacyNames: LegacyMigrationNames,
): Promise<void> {
  await withAdvisoryLock(handle, `pim:migrate:${handle.schema}`, async () => {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.raw(handle.schema)}`.execute(handle.db);
    await renameLegacyMigrations(handle, legacyNames);
    // Kysely finds its migration tables by introspecting every schema: named, it looks in this one.
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => migrations },
      migrationTableSchema: handle.schema,
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(
        `Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  });
}

/** Whether a schema exists (a workspace whose schema was dropped must be noticed, never recreated). */
export async function schemaExists(db: Kysely<unknown>, schema: string): Promise<boolean> {
  const result = await sql<{ n: number }>`
    SELECT count(*) AS n FROM pg_namespace WHERE nspname = ${schema}`.execute(db);
  return Number(result.rows[0]?.n ?? 0) > 0;
}

/** Drops a schema with everything in it (a workspace whose creation failed). */
export async function dropSchema(db: Kysely<unknown>, schema: string): Promise<void> {
  await sql`DROP SCHEMA IF EXISTS ${sql.id(checkSchemaName(schema))} CASCADE`.execute(db);
}

/**
 * Runs `work` while no other instance on the shared database runs work of the same name, on a
 * connection of its own: the wait may outlast the shared pool's 15 s query timeout (another
 * desktop's first run, across a slow network).
 */
export async function exclusively<T>(
  shared: { url: string; schema: string },
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const handle = openPostgres<unknown>(shared.url, shared.schema, {
    max: 1,
    applicationName: `pim ${name}`,
    queryTimeoutMs: MIGRATION_QUERY_TIMEOUT_MS,
  });
  try {
    return await withAdvisoryLock(handle, `pim:${name}:${shared.schema}`, work);
  } finally {
    await handle.close();
  }
}
