import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { migrate, openSqlite, type SqliteHandle } from '../../db/sqlite.js';
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
  /** Raw connection (same as db's, inside Kysely's transactions): for writes only through db. */
  raw: Database.Database;
  /**
   * A second, read-only connection for prepared statements on hot read paths. It sees
   * committed data only (WAL), never a transaction in progress on `db`.
   */
  reader: Database.Database;
  close(): Promise<void>;
}

export function workspaceDbPath(rootpath: string): string {
  return join(rootpath, WORKSPACE_DB_FILE);
}

/** Creates the database of a new workspace in an existing, empty folder. */
export async function initWorkspaceDatabase(rootpath: string, defaultLanguage: string): Promise<void> {
  const handle = openSqlite<WorkspaceDatabase>(workspaceDbPath(rootpath));
  try {
    await migrate(handle.db, workspaceMigrations);
    await handle.db
      .insertInto('meta')
      .values([
        { key: 'default_language', value: defaultLanguage },
        { key: 'next_root_group_seq', value: '1' },
      ])
      .execute();
  } finally {
    await handle.close();
  }
}

/**
 * Opens an existing workspace database. A missing folder or database file is an
 * error (400 on the API): a database is never silently recreated.
 */
export async function openWorkspaceDatabase(ws: {
  id: number;
  name: string;
  rootpath: string;
}): Promise<OpenWorkspace> {
  if (!existsSync(ws.rootpath) || !statSync(ws.rootpath).isDirectory()) {
    throw new ValidationError(`Workspace folder ${ws.rootpath} is missing`, 'WORKSPACE_FOLDER_MISSING');
  }
  const file = workspaceDbPath(ws.rootpath);
  if (!existsSync(file)) {
    throw new ValidationError(`Workspace database ${file} is missing`, 'WORKSPACE_DATABASE_MISSING');
  }
  let handle: SqliteHandle<WorkspaceDatabase>;
  try {
    handle = openSqlite<WorkspaceDatabase>(file, { mustExist: true });
  } catch (error) {
    throw new ValidationError(
      `Workspace database ${file} cannot be opened: ${error instanceof Error ? error.message : String(error)}`,
      'WORKSPACE_DATABASE_UNREACHABLE',
    );
  }
  try {
    await migrate(handle.db, workspaceMigrations);
    const meta = await handle.db
      .selectFrom('meta')
      .selectAll()
      .where('key', '=', 'default_language')
      .executeTakeFirst();
    const reader = openSqlite<WorkspaceDatabase>(file, { mustExist: true, readonly: true });
    return {
      ...ws,
      defaultLanguage: meta?.value ?? 'deu',
      db: handle.db,
      raw: handle.raw,
      reader: reader.raw,
      async close() {
        await reader.close();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw new ValidationError(
      `Workspace database ${file} is not usable: ${error instanceof Error ? error.message : String(error)}`,
      'WORKSPACE_DATABASE_UNREACHABLE',
    );
  }
}
