import { chmodSync, closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openCatalogueStore, type CatalogueStore } from '../../db/catalogue/catalogue-store.js';
import { databaseFileProblem } from '../../db/database-file-access.js';
import { migrate, openSqlite, type SqliteConnection, type SqliteHandle } from '../../db/sqlite.js';
import { DEFAULT_LOCK_WAIT, type LockWait } from '../../db/lock-wait.js';
import { startWalCheckpoints, type WalCheckpoints } from '../../db/wal-checkpoints.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import { workspaceMigrations } from '../../db/workspace.migrations.js';
import { ValidationError } from '../errors.js';

export const WORKSPACE_DB_FILE = 'workspace.sqlite';

/** A workspace whose database is open: what catalogue services work on. */
export interface OpenWorkspace {
  id: number;
  name: string;
  rootpath: string;
  defaultLanguage: string;
  db: Kysely<WorkspaceDatabase>;
  /** The catalogue behind the dialect seam: its SQL and its reads (db/catalogue/catalogue-store.ts). */
  store: CatalogueStore;
  /** SQLite only: the raw connection (same as db's, inside Kysely's transactions), for tests and tools. */
  raw?: SqliteConnection;
  /**
   * SQLite only: the second, read-only connection the store's reads use (it sees committed data
   * only, never a transaction in progress on `db`); `pim db move` reads its snapshot with it.
   */
  reader?: SqliteConnection;
  close(): Promise<void>;
}

export function workspaceDbPath(rootpath: string): string {
  return join(rootpath, WORKSPACE_DB_FILE);
}

/** Removes a workspace database and its WAL files (a create that failed). */
export function removeDatabaseFiles(rootpath: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    rmSync(`${workspaceDbPath(rootpath)}${suffix}`, { force: true });
}

/**
 * Database files are readable by the owner only (the data folder's files hold the catalogue):
 * group and others lose their bits. The owner's bits are left as they are: setting 0600 made a
 * file its owner had made read-only writable again, silently.
 */
export function restrictDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    const path = `${file}${suffix}`;
    if (existsSync(path)) chmodSync(path, statSync(path).mode & 0o600);
  }
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * Whether a file is a pim workspace database: a SQLite file whose schema has pim's migration
 * record and its `meta` table. An empty or foreign file is refused, never initialised as a new
 * workspace: it may be somebody's data, and a missing workspace must be noticed.
 */
function hasSqliteHeader(file: string): boolean {
  if (statSync(file).size < 100) return false;
  // Only the header is read: reading the whole file held a workspace's size in memory on every open.
  const header = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, 16, 0) === 16 && header.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

function hasPimTables(raw: { prepare(sql: string): { all(): unknown[] } }): boolean {
  const tables = new Set(
    (raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
      (t) => t.name,
    ),
  );
  return tables.has('kysely_migration') && tables.has('meta');
}

function foreignDatabase(name: string): ValidationError {
  return new ValidationError(
    `The file in the folder of workspace ${name} is not a pim workspace database`,
    'WORKSPACE_DATABASE_FOREIGN',
  );
}

/** Opens a workspace's database file; one that SQLite cannot open is a ValidationError naming the workspace. */
function openOrRefuse(
  name: string,
  file: string,
  options: { readonly?: boolean; lockWait?: LockWait } = {},
): SqliteHandle<WorkspaceDatabase> {
  try {
    return openSqlite<WorkspaceDatabase>(file, { mustExist: true, ...options });
  } catch (error) {
    throw new ValidationError(
      `The database of workspace ${name} cannot be opened`,
      'WORKSPACE_DATABASE_UNREACHABLE',
      { cause: error },
    );
  }
}

/** Refuses a SQLite file without pim's tables, having read it through a read-only connection. */
async function checkPimDatabase(name: string, file: string): Promise<void> {
  const reader = openOrRefuse(name, file, { readonly: true });
  let isPim: boolean;
  try {
    isPim = hasPimTables(reader.raw);
  } catch (error) {
    throw new ValidationError(
      `The database of workspace ${name} cannot be read`,
      'WORKSPACE_DATABASE_UNREACHABLE',
      {
        cause: error,
      },
    );
  } finally {
    await reader.close();
  }
  if (!isPim) throw foreignDatabase(name);
}

/** The facts a new workspace starts with, on either backend: its default language, the group numbering. */
export async function insertInitialMeta(
  db: Kysely<WorkspaceDatabase>,
  defaultLanguage: string,
): Promise<void> {
  await db
    .insertInto('meta')
    .values([
      { key: 'default_language', value: defaultLanguage },
      { key: 'next_root_group_seq', value: '1' },
    ])
    .execute();
}

/** Creates the database of a new workspace in an existing, empty folder. */
export async function initWorkspaceDatabase(rootpath: string, defaultLanguage: string): Promise<void> {
  const handle = openSqlite<WorkspaceDatabase>(workspaceDbPath(rootpath));
  try {
    restrictDatabaseFiles(workspaceDbPath(rootpath));
    await migrate(handle, workspaceMigrations);
    await insertInitialMeta(handle.db, defaultLanguage);
  } finally {
    await handle.close();
  }
}

/**
 * Refuses a workspace whose database pim could not write: SQLite would open a read-only file
 * read-only without a word, and the first write would fail. A file or folder made read-only is
 * left so (the owner chose it); the message says what to change.
 */
function checkWritable(name: string, file: string, folder: string): void {
  const problem = databaseFileProblem(file, folder);
  if (!problem) return;
  if (problem.kind === 'read-only') {
    throw new ValidationError(
      `The database of workspace ${name} is read-only (${problem.mode}); pim writes to it, so make the file and its folder writable to open it`,
      'WORKSPACE_DATABASE_READ_ONLY',
    );
  }
  throw new ValidationError(
    `The database of workspace ${name} cannot be opened`,
    'WORKSPACE_DATABASE_UNREACHABLE',
    problem.kind === 'inaccessible' ? { cause: problem.error } : undefined,
  );
}

/**
 * Opens an existing workspace database. A missing folder or database file is an
 * error (400 on the API): a database is never silently recreated. Its write transactions wait
 * for another process's lock asynchronously, up to `lockWait` (db/sqlite-dialect.ts): in the
 * server a wait inside SQLite would stop every request, reads included.
 */
export async function openWorkspaceDatabase(
  ws: { id: number; name: string; rootpath: string },
  lockWait: LockWait = DEFAULT_LOCK_WAIT,
): Promise<OpenWorkspace> {
  const name = `'${ws.name}'`;
  if (!existsSync(ws.rootpath) || !statSync(ws.rootpath).isDirectory()) {
    throw new ValidationError(`The folder of workspace ${name} is missing`, 'WORKSPACE_FOLDER_MISSING');
  }
  const file = workspaceDbPath(ws.rootpath);
  if (!existsSync(file)) {
    throw new ValidationError(`The database of workspace ${name} is missing`, 'WORKSPACE_DATABASE_MISSING');
  }
  // The messages name the workspace, not the path or the database's own words (those go to the
  // log through the error's cause): a client learns what to fix, not how the server is laid out.
  checkWritable(name, file, ws.rootpath);
  // Checked before opening for writing, which would turn an empty file into a database and switch
  // a foreign one to WAL (rewriting its header): a refused file is left byte for byte as it was.
  if (!hasSqliteHeader(file)) throw foreignDatabase(name);
  await checkPimDatabase(name, file);
  const handle = openOrRefuse(name, file, { lockWait });
  let checkpoints: WalCheckpoints | undefined;
  try {
    await migrate(handle, workspaceMigrations);
    const meta = await handle.db
      .selectFrom('meta')
      .selectAll()
      .where('key', '=', 'default_language')
      .executeTakeFirst();
    restrictDatabaseFiles(file);
    checkpoints = await startWalCheckpoints(handle.raw, file, (message) =>
      console.error(`pim: checkpointing the WAL of workspace ${name} failed: ${message}`),
    );
    const reader = openSqlite<WorkspaceDatabase>(file, { mustExist: true, readonly: true });
    return {
      ...ws,
      defaultLanguage: meta?.value ?? 'deu',
      db: handle.db,
      store: openCatalogueStore('sqlite', handle.db, reader.raw),
      raw: handle.raw,
      reader: reader.raw,
      async close() {
        await checkpoints?.stop();
        await reader.close();
        await handle.close();
      },
    };
  } catch (error) {
    await checkpoints?.stop();
    await handle.close();
    throw new ValidationError(
      `The database of workspace ${name} is not usable`,
      'WORKSPACE_DATABASE_UNREACHABLE',
      {
        cause: error,
      },
    );
  }
}
