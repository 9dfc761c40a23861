import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrate, openSqlite, type SqliteHandle } from '../db/sqlite.js';
import type { SystemDatabase } from '../db/system.schema.js';
import { systemMigrations } from '../db/system.migrations.js';
import { restrictDatabaseFiles } from '../domain/workspaces/open-workspace.js';

export const SYSTEM_DB_FILE = 'system.sqlite';

/** Opens (creating if needed) the system database of a data folder and brings its schema up to date. */
export async function openSystemStore(dataDir: string): Promise<SqliteHandle<SystemDatabase>> {
  // The data folder holds users, password hashes and the catalogue: the owner's only.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, SYSTEM_DB_FILE);
  const handle = openSqlite<SystemDatabase>(file);
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
