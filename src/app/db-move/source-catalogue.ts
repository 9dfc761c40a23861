import type Database from 'better-sqlite3';
import { SYSTEM_TABLES } from '../../db/move/system-tables.js';
import { sqliteTables } from '../../db/move/table-plan.js';
import type { SqliteHandle } from '../../db/sqlite.js';
import type { SystemDatabase } from '../../db/system.schema.js';
import { openWorkspaceDatabase, type OpenWorkspace } from '../../domain/workspaces/open-workspace.js';
import type { WorkspaceLocation } from '../../domain/workspaces/workspace-storage.js';
import { openSystemStore } from '../system-store.js';

export interface SourceWorkspace {
  location: WorkspaceLocation;
  /** A connection that reads the workspace's SQLite file (read-only). */
  reader: Database.Database;
}

/** The single-machine installation being moved: system.sqlite and every workspace's file, open. */
export interface SourceCatalogue {
  system: Database.Database;
  workspaces: SourceWorkspace[];
  close(): Promise<void>;
}

/**
 * Opens the data folder's SQLite side and every registered workspace, before anything is done
 * to the target: a workspace whose folder or file is missing stops the move while nothing has
 * been created yet. Opening brings each file's schema up to date (as `pim start` would), so
 * that both sides have the same tables. Every file is then read inside one read transaction:
 * a consistent snapshot, even if something wrote to it meanwhile.
 */
export async function openSourceCatalogue(dataDir: string): Promise<SourceCatalogue> {
  const system: SqliteHandle<SystemDatabase> = await openSystemStore(dataDir);
  const opened: OpenWorkspace[] = [];
  const close = async () => {
    for (const ws of opened) {
      if (ws.reader?.inTransaction) ws.reader.exec('COMMIT');
      await ws.close();
    }
    if (system.raw.inTransaction) system.raw.exec('COMMIT');
    await system.close();
  };
  try {
    checkSystemTables(system.raw);
    system.raw.exec('BEGIN');
    const locations = await system.db
      .selectFrom('workspace')
      .select(['id', 'name', 'rootpath', 'db_schema'])
      .orderBy('id')
      .execute();
    const workspaces: SourceWorkspace[] = [];
    for (const location of locations) {
      const ws = await openWorkspaceDatabase(location);
      opened.push(ws);
      const reader = ws.reader ?? ws.raw!;
      reader.exec('BEGIN');
      workspaces.push({ location, reader });
    }
    return { system: system.raw, workspaces, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A table nobody decided about (added by a later migration) must not be left behind silently. */
function checkSystemTables(raw: Database.Database): void {
  for (const name of sqliteTables(raw).keys()) {
    if (!(name in SYSTEM_TABLES)) {
      throw new Error(
        `system.sqlite has a table ${name} that pim db move does not know how to move (src/db/move/system-tables.ts)`,
      );
    }
  }
}
