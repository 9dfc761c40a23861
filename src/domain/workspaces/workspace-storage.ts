import type { Dialect } from '../../db/dialect.js';
import type { LockWait } from '../../db/lock-wait.js';
import type { OpenWorkspace } from './open-workspace.js';
import { initWorkspaceDatabase, openWorkspaceDatabase, removeDatabaseFiles } from './open-workspace.js';

/** A workspace as the registry knows it. */
export interface WorkspaceLocation {
  id: number;
  name: string;
  rootpath: string;
  /** The PostgreSQL schema of the workspace (team mode); null on SQLite, where it is a file. */
  db_schema: string | null;
}

/**
 * Where workspace catalogues live: a SQLite file in each workspace folder, or a schema of the
 * shared PostgreSQL database. The workspace service works with either.
 */
export interface WorkspaceStorage {
  readonly dialect: Dialect;
  /** Creates the database of a new workspace (its folder exists and is empty); returns its schema. */
  create(rootpath: string, defaultLanguage: string): Promise<{ dbSchema: string | null }>;
  /** Removes what `create` made (a registration that failed afterwards). */
  remove(rootpath: string, dbSchema: string | null): Promise<void>;
  /** Opens an existing workspace database; missing or foreign ones are a ValidationError (400). */
  open(ws: WorkspaceLocation): Promise<OpenWorkspace>;
}

/**
 * Each workspace a SQLite file `workspace.sqlite` in its folder; `lockWait`: how long a write
 * waits for another process's lock (default 5 s).
 */
export function sqliteWorkspaceStorageWith(lockWait?: LockWait): WorkspaceStorage {
  return {
    dialect: 'sqlite',
    async create(rootpath, defaultLanguage) {
      await initWorkspaceDatabase(rootpath, defaultLanguage);
      return { dbSchema: null };
    },
    async remove(rootpath) {
      removeDatabaseFiles(rootpath);
    },
    open: (ws) => openWorkspaceDatabase(ws, lockWait),
  };
}

/** Each workspace a SQLite file `workspace.sqlite` in its folder, with the default lock wait. */
export const sqliteWorkspaceStorage: WorkspaceStorage = sqliteWorkspaceStorageWith();
