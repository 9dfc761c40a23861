import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import {
  redactDatabaseUrl,
  storageChoice,
  withoutPassword,
  type StorageChoice,
} from '../db/database-config.js';
import { isConnectionFailure } from '../db/connection-errors.js';
import type { Dialect } from '../db/dialect.js';
import { migratePostgres, openPostgres, type PostgresHandle } from '../db/postgres.js';
import { databaseFileProblem } from '../db/database-file-access.js';
import { migrate, openSqlite, type SqliteHandle } from '../db/sqlite.js';
import { SHARED_SCHEMA, type SystemDatabase } from '../db/system.schema.js';
import { systemMigrations } from '../db/system.migrations.js';
import { systemLegacyNamesPostgres, systemMigrationsPostgres } from '../db/system.migrations.postgres.js';
import { fileSystemReason } from '../db/file-system.js';
import { ensureDataDir } from './data-dir.js';
import { restrictDatabaseFiles } from '../domain/workspaces/open-workspace.js';
import { sqliteWorkspaceStorageWith, type WorkspaceStorage } from '../domain/workspaces/workspace-storage.js';
import type { LockWait } from '../db/lock-wait.js';
import { postgresWorkspaceStorage } from '../domain/workspaces/workspace-storage.postgres.js';

export const SYSTEM_DB_FILE = 'system.sqlite';

/** Opens (creating if needed) the system database of a data folder and brings its schema up to date. */
export async function openSystemStore(dataDir: string): Promise<SqliteHandle<SystemDatabase>> {
  ensureDataDir(dataDir);
  const file = join(dataDir, SYSTEM_DB_FILE);
  checkSystemDatabaseFile(file);
  let handle: SqliteHandle<SystemDatabase>;
  try {
    handle = openSqlite<SystemDatabase>(file);
  } catch (error) {
    // SQLite's "unable to open database file" names neither the file nor the reason.
    throw new Error(`the system database ${file} cannot be opened: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    restrictDatabaseFiles(file);
    await migrate(handle, systemMigrations);
    restrictDatabaseFiles(file);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Refuses a system database that pim could not read and write, in one sentence naming it. A file
 * its owner made read-only is refused, not made writable: pim writes to it at every start
 * (migrations, sessions), and changing the modes of somebody's file behind their back is not ours
 * to decide. Checked on the mode bits as well as with access(), which grants everything to root.
 */
function checkSystemDatabaseFile(file: string): void {
  const problem = databaseFileProblem(file);
  if (!problem) return;
  const name = `the system database ${file}`;
  switch (problem.kind) {
    case 'not-a-file':
      throw new Error(`${name} is not a file`);
    case 'unreadable':
      throw new Error(`${name} cannot be read: permission denied (${problem.mode})`);
    case 'read-only':
      throw new Error(
        `${name} is read-only (${problem.mode}); pim writes to it, so make it writable (chmod u+w) to use it`,
      );
    case 'inaccessible':
      throw new Error(`${name} cannot be opened: ${fileSystemReason(problem.error)}`, {
        cause: problem.error,
      });
  }
}

/**
 * PostgreSQL copies a template database (template1, or one marked IS_TEMPLATE) into every
 * database created afterwards: pim's schemas there would hand its users, password hashes and
 * catalogues to every new database of the server. Refused before anything is written.
 */
async function refuseTemplateDatabase(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ datname: string; datistemplate: boolean }>`
    SELECT datname, datistemplate FROM pg_database WHERE datname = current_database()`.execute(db);
  if (rows[0]?.datistemplate) {
    throw new Error(
      `${rows[0].datname} is a template database, copied into every new database of the server; give pim a database of its own`,
    );
  }
}

/** Kysely's own tables, which pim's migrations create first in the schema they migrate. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/**
 * pim keeps its shared data in the schema `pim`. One that holds tables but no record of pim's
 * migrations belongs to another application: migrating it would fail halfway (a table `user` of
 * theirs) and leave pim's migration tables among theirs. Refused before anything is written.
 */
async function refuseForeignSharedSchema(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ relname: string }>`
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${SHARED_SCHEMA} AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
    ORDER BY c.relname`.execute(db);
  const tables = rows.map((r) => r.relname);
  const foreign = tables.filter((name) => !MIGRATION_TABLES.includes(name));
  if (foreign.length === 0) return;
  if (tables.includes('kysely_migration')) {
    const { rows: applied } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM ${sql.table(`${SHARED_SCHEMA}.kysely_migration`)}`.execute(db);
    if (Number(applied[0]?.n ?? 0) > 0) return;
  }
  const named = foreign.length > 5 ? `${foreign.slice(0, 5).join(', ')}, …` : foreign.join(', ');
  throw new Error(
    `its schema ${SHARED_SCHEMA} holds tables that are not pim's (${named}); give pim a database of its own, or move that schema away`,
  );
}

/**
 * The databases of one pim instance. `local` is always the data folder's SQLite file: the
 * settings and the open workspace belong to the instance. `shared` holds users, sessions and the
 * workspace registry: the same SQLite file, or in team mode the PostgreSQL database that several
 * instances share, where every workspace is a schema too.
 */
export interface Stores {
  local: SqliteHandle<SystemDatabase>;
  shared: Kysely<SystemDatabase>;
  dialect: Dialect;
  choice: StorageChoice;
  workspaces: WorkspaceStorage;
  /** Team mode: the shared database's pool (LISTEN/NOTIFY, health). */
  postgres?: PostgresHandle<SystemDatabase>;
  close(): Promise<void>;
}

/** `lockWait`: how long a write to a workspace waits for another process's lock (default 5 s). */
export async function openStores(
  dataDir: string,
  choice = storageChoice(dataDir),
  lockWait?: LockWait,
): Promise<Stores> {
  const local = await openSystemStore(dataDir);
  if (choice.kind === 'sqlite') {
    return {
      local,
      shared: local.db,
      dialect: 'sqlite',
      choice,
      workspaces: sqliteWorkspaceStorageWith(lockWait),
      close: () => local.close(),
    };
  }
  const postgres = openPostgres<SystemDatabase>(choice.url, SHARED_SCHEMA, { max: 5 });
  try {
    await refuseTemplateDatabase(postgres.db as Kysely<unknown>);
    await refuseForeignSharedSchema(postgres.db as Kysely<unknown>);
    await migratePostgres(postgres, systemMigrationsPostgres, systemLegacyNamesPostgres);
  } catch (error) {
    await postgres.close();
    await local.close();
    // One line that says which database and why, never with its password.
    const reason = withoutPassword(error instanceof Error ? error.message : String(error), choice.url);
    throw new Error(
      isConnectionFailure(error)
        ? `the shared database ${redactDatabaseUrl(choice.url)} cannot be reached: ${reason}`
        : `the shared database ${redactDatabaseUrl(choice.url)} cannot be used: ${reason}`,
      { cause: error },
    );
  }
  return {
    local,
    shared: postgres.db,
    dialect: 'postgres',
    choice,
    workspaces: postgresWorkspaceStorage(choice.url, postgres.db as Kysely<unknown>, lockWait),
    postgres,
    async close() {
      await postgres.close();
      await local.close();
    },
  };
}
