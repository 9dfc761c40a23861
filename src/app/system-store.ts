import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrate, openSqlite, type SqliteHandle } from '../db/sqlite.js';
import type { SystemDatabase } from '../db/system.schema.js';
import { systemMigrations } from '../db/system.migrations.js';

export const SYSTEM_DB_FILE = 'system.sqlite';

/** Opens (creating if needed) the system database of a data folder and brings its schema up to date. */
export async function openSystemStore(dataDir: string): Promise<SqliteHandle<SystemDatabase>> {
  mkdirSync(dataDir, { recursive: true });
  const handle = openSqlite<SystemDatabase>(join(dataDir, SYSTEM_DB_FILE));
  try {
    await migrate(handle.db, systemMigrations);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
