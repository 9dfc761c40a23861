import Database from 'better-sqlite3';
import { Kysely, type Migration, Migrator, type SqliteDatabase } from 'kysely';
import type { LockWait } from './lock-wait.js';
import { LOCK_WAIT_BUSY_TIMEOUT_MS, PimSqliteDialect } from './sqlite-dialect.js';

/** A raw SQLite connection (better-sqlite3), named here so that layers above need not import the driver. */
export type SqliteConnection = Database.Database;

export interface SqliteHandle<DB> {
  db: Kysely<DB>;
  /** The raw connection, for prepared statements on hot paths. Shares Kysely's connection. */
  raw: Database.Database;
  close(): Promise<void>;
}

/**
 * Opens a SQLite database with the settings every pim database uses.
 * WAL with synchronous=NORMAL: a committed transaction survives a crash of the
 * process (kill -9); only a power loss may lose the last commits. Foreign keys on,
 * because cascades (variants, texts, features, subtrees) rely on them. With `lockWait`, write
 * transactions wait for another process's write lock asynchronously (sqlite-dialect.ts) and the
 * connection's busy_timeout is a few ms; without, SQLite waits up to 5 s, blocking the thread.
 */
export function openSqlite<DB>(
  file: string,
  options: { mustExist?: boolean; readonly?: boolean; lockWait?: LockWait } = {},
): SqliteHandle<DB> {
  const raw = new Database(file, {
    fileMustExist: options.mustExist ?? false,
    readonly: options.readonly ?? false,
  });
  try {
    // First: switching a new file to WAL takes a lock that another process starting on the same
    // data folder may hold for a moment; without a timeout that is "database is locked" at once.
    raw.pragma('busy_timeout = 5000');
    if (!options.readonly) raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    if (options.lockWait) raw.pragma(`busy_timeout = ${LOCK_WAIT_BUSY_TIMEOUT_MS}`);
  } catch (error) {
    raw.close();
    throw error;
  }
  const db = new Kysely<DB>({
    dialect: new PimSqliteDialect({ database: withStatementCache(raw), raw, lockWait: options.lockWait }),
  });
  let closed = false;
  return {
    db,
    raw,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * Brings a database's schema up to date: the migrations not yet recorded in kysely_migration.
 * Several processes may open a new data folder at the same moment (`pim start` and a CLI
 * command): the whole run holds SQLite's write lock from its start (BEGIN IMMEDIATE), so the
 * second process waits, then finds the migrations applied. Kysely's own per-migration
 * transactions would read the migration table before taking the lock. That wait stays inside
 * SQLite (5 s, whatever the connection's own busy_timeout): it happens only when a database
 * opens (the start, opening a workspace), and another process's migration may take seconds.
 */
export async function migrate<DB>(
  handle: { db: Kysely<DB>; raw: Database.Database },
  migrations: Record<string, Migration>,
): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    disableTransactions: true,
  });
  const busyTimeout = handle.raw.pragma('busy_timeout', { simple: true }) as number;
  handle.raw.pragma(`busy_timeout = ${MIGRATION_BUSY_TIMEOUT_MS}`);
  let committed = false;
  try {
    handle.raw.exec('BEGIN IMMEDIATE');
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(
        `Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    handle.raw.exec('COMMIT');
    committed = true;
  } finally {
    if (!committed && handle.raw.inTransaction) handle.raw.exec('ROLLBACK');
    handle.raw.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

const MIGRATION_BUSY_TIMEOUT_MS = 5000;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, which cost a fifth to a third of the server's time on
 * write and list endpoints (bench profiles). better-sqlite3 statements are reusable, so they
 * are kept by SQL text, oldest dropped first. Kysely runs one query at a time per connection
 * (and pim does not stream through Kysely), so a cached statement is never in use twice.
 */
export function withStatementCache(raw: Database.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = raw.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
