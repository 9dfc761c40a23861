import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { openCatalogueStore } from '../../db/catalogue/catalogue-store.js';
import {
  dropSchema,
  migratePostgres,
  openPostgres,
  schemaExists,
  type PostgresHandle,
} from '../../db/postgres.js';
import { isConnectionFailure } from '../../db/connection-errors.js';
import { DEFAULT_LOCK_WAIT, type LockWait } from '../../db/lock-wait.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../../db/workspace.migrations.postgres.js';
import { ValidationError } from '../errors.js';
import { insertInitialMeta, type OpenWorkspace } from './open-workspace.js';
import type { WorkspaceLocation, WorkspaceStorage } from './workspace-storage.js';

/** Connections per open workspace and instance (PostgreSQL's default limit is 100 in all). */
const WORKSPACE_POOL_SIZE = 10;

function unreachable(name: string, error: unknown): ValidationError {
  return new ValidationError(
    `The database of workspace ${name} is unreachable: the PostgreSQL server does not answer`,
    'WORKSPACE_DATABASE_UNREACHABLE',
    { cause: error },
  );
}

/** A new workspace's schema name: random, so that instances creating workspaces at once never collide. */
export function newWorkspaceSchemaName(): string {
  return `pim_ws_${randomBytes(8).toString('hex')}`;
}

/**
 * Team mode: each workspace a schema (`pim_ws_<random>`) of the shared PostgreSQL database,
 * named in the registry. Its folder still exists, for files. `admin` is the system schema's
 * database, used for what concerns schemas as a whole.
 */
export function postgresWorkspaceStorage(
  url: string,
  admin: Kysely<unknown>,
  lockWait: LockWait = DEFAULT_LOCK_WAIT,
): WorkspaceStorage {
  return {
    dialect: 'postgres',
    async create(_rootpath, defaultLanguage) {
      const schema = newWorkspaceSchemaName();
      const handle = openPostgres<WorkspaceDatabase>(url, schema, { max: 2 });
      try {
        await migratePostgres(handle, workspaceMigrationsPostgres, workspaceLegacyNamesPostgres);
        await insertInitialMeta(handle.db, defaultLanguage);
      } catch (error) {
        await dropSchema(admin, schema).catch(() => undefined);
        throw error;
      } finally {
        await handle.close();
      }
      return { dbSchema: schema };
    },
    async remove(_rootpath, dbSchema) {
      if (dbSchema) await dropSchema(admin, dbSchema);
    },
    open: (ws) => openSchema(url, admin, ws, lockWait),
  };
}

async function openSchema(
  url: string,
  admin: Kysely<unknown>,
  ws: WorkspaceLocation,
  lockWait: LockWait,
): Promise<OpenWorkspace> {
  const name = `'${ws.name}'`;
  if (!existsSync(ws.rootpath) || !statSync(ws.rootpath).isDirectory()) {
    throw new ValidationError(`The folder of workspace ${name} is missing`, 'WORKSPACE_FOLDER_MISSING');
  }
  if (!ws.db_schema) {
    throw new ValidationError(
      `The database of workspace ${name} is missing: it was registered without a schema`,
      'WORKSPACE_DATABASE_MISSING',
    );
  }
  try {
    if (!(await schemaExists(admin, ws.db_schema))) {
      throw new ValidationError(`The database of workspace ${name} is missing`, 'WORKSPACE_DATABASE_MISSING');
    }
  } catch (error) {
    if (isConnectionFailure(error)) throw unreachable(name, error);
    throw error;
  }
  // The requests' connections: a write waiting for another transaction's lock gives up after the
  // lock wait (503 DATABASE_BUSY), as on SQLite. Migrations run on connections of their own.
  const handle: PostgresHandle<WorkspaceDatabase> = openPostgres<WorkspaceDatabase>(url, ws.db_schema, {
    max: WORKSPACE_POOL_SIZE,
    lockTimeoutMs: lockWait.deadlineMs,
  });
  try {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = ${ws.db_schema}`.execute(
      handle.db,
    );
    const names = new Set(tables.rows.map((t) => t.table_name));
    if (!names.has('kysely_migration') || !names.has('meta')) {
      throw new ValidationError(
        `The schema of workspace ${name} is not a pim workspace database`,
        'WORKSPACE_DATABASE_FOREIGN',
      );
    }
    await migratePostgres(handle, workspaceMigrationsPostgres, workspaceLegacyNamesPostgres);
    const meta = await handle.db
      .selectFrom('meta')
      .select('value')
      .where('key', '=', 'default_language')
      .executeTakeFirst();
    return {
      id: ws.id,
      name: ws.name,
      rootpath: ws.rootpath,
      defaultLanguage: meta?.value ?? 'deu',
      db: handle.db,
      store: openCatalogueStore('postgres', handle.db),
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    if (error instanceof ValidationError) throw error;
    if (isConnectionFailure(error)) throw unreachable(name, error);
    throw new ValidationError(
      `The database of workspace ${name} is not usable`,
      'WORKSPACE_DATABASE_UNREACHABLE',
      { cause: error },
    );
  }
}
