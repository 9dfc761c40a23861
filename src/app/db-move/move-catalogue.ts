import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { isConnectionFailure } from '../../db/connection-errors.js';
import {
  checkNewDatabaseUrl,
  DATABASE_URL_VARIABLE,
  redactDatabaseUrl,
  saveDatabaseUrl,
  storageChoice,
} from '../../db/database-config.js';
import {
  assertEmptyTarget,
  dropCreatedSharedSchema,
  moveSystemTables,
  sharedSchemaExists,
  TargetNotEmptyError,
} from '../../db/move/move-system.js';
import { moveWorkspace } from '../../db/move/move-workspace.js';
import type { MovedTable } from '../../db/move/verified-copy.js';
import { dropSchema } from '../../db/postgres.js';
import { newWorkspaceSchemaName } from '../../domain/workspaces/workspace-storage.postgres.js';
import { openStores, SYSTEM_DB_FILE } from '../system-store.js';
import { openSourceCatalogue } from './source-catalogue.js';

export interface MoveReport {
  /** The target without its password. */
  target: string;
  system: MovedTable[];
  workspaces: Array<{ id: number; name: string; schema: string; tables: MovedTable[] }>;
  seconds: number;
}

/**
 * Only a single-machine installation moves: one whose data folder is on SQLite, read from its
 * files. PIM_DATABASE_URL would point every later command elsewhere than where the move goes.
 */
function refuseUnlessSingleMachine(dataDir: string, env: NodeJS.ProcessEnv): void {
  if ((env[DATABASE_URL_VARIABLE] ?? '').trim() !== '') {
    throw new Error(
      `${DATABASE_URL_VARIABLE} is set: it would win over the data folder's choice after the move; ` +
        'unset it and run pim db move again',
    );
  }
  const current = storageChoice(dataDir, {});
  if (current.kind === 'postgres') {
    throw new Error(
      `this data folder already uses the shared database ${redactDatabaseUrl(current.url)}: nothing to move`,
    );
  }
  if (!existsSync(join(dataDir, SYSTEM_DB_FILE))) {
    throw new Error(`the data folder ${dataDir} holds no pim data (no ${SYSTEM_DB_FILE}): nothing to move`);
  }
}

/** A failure while copying, in one line: where, why, and that the data folder was not switched. */
function failed(what: string, url: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const why = isConnectionFailure(error)
    ? `the database ${redactDatabaseUrl(url)} cannot be reached: ${reason}`
    : reason;
  return new Error(
    `moving ${what} failed: ${why}; the copy was removed and this data folder stays on SQLite`,
    { cause: error },
  );
}

/**
 * `pim db move --to URL`: copies the data folder's users, workspace registry and every
 * workspace into an empty PostgreSQL database, verifies every table (row count and checksum),
 * and only then switches the data folder to it. Each workspace goes into a new schema in one
 * transaction of its own; the users and the registry follow in a last transaction, so that
 * the target shows nothing to other instances until everything is there. Any failure drops
 * the schemas created so far (the shared one too, when the move created it) and leaves the
 * data folder on SQLite. The SQLite files are never changed beyond bringing their schema up to
 * date: they stay as the backup.
 */
export async function moveCatalogue(
  dataDir: string,
  to: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<MoveReport> {
  const started = performance.now();
  const url = checkNewDatabaseUrl(to);
  refuseUnlessSingleMachine(dataDir, env);
  const source = await openSourceCatalogue(dataDir).catch((error) => {
    // A workspace whose folder or file is missing, say: found before the target is touched.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}; nothing was moved`, { cause: error });
  });
  let report: MoveReport;
  try {
    // A failed move removes what it created: the shared schema too, when it was not there before.
    const sharedExisted = await sharedSchemaExists(url);
    // Reaches the target and creates its shared schema (migrations); an unreachable server
    // ends the move here in one line that names the database without its password.
    const stores = await openStores(dataDir, { kind: 'postgres', url });
    const admin = stores.shared as Kysely<unknown>;
    const created = new Map<number, string>();
    try {
      const pool = stores.postgres!.pool;
      const probe = await pool.connect();
      try {
        await assertEmptyTarget(probe, url);
      } finally {
        probe.release();
      }
      const workspaces: MoveReport['workspaces'] = [];
      for (const ws of source.workspaces) {
        const schema = newWorkspaceSchemaName();
        created.set(ws.location.id, schema);
        const tables = await moveWorkspace(url, schema, ws.location.name, ws.reader).catch((error) => {
          throw failed(`workspace '${ws.location.name}'`, url, error);
        });
        workspaces.push({ id: ws.location.id, name: ws.location.name, schema, tables });
      }
      const system = await moveSystemTables(source.system, pool, url, created).catch((error) => {
        throw error instanceof TargetNotEmptyError
          ? error
          : failed('users and workspace registry', url, error);
      });
      report = {
        target: redactDatabaseUrl(url),
        system,
        workspaces,
        seconds: (performance.now() - started) / 1000,
      };
    } catch (error) {
      for (const schema of created.values()) await dropSchema(admin, schema).catch(() => undefined);
      if (!sharedExisted) await dropCreatedSharedSchema(stores.postgres!.pool).catch(() => undefined);
      throw error;
    } finally {
      await stores.close();
    }
  } finally {
    await source.close();
  }
  saveDatabaseUrl(dataDir, url);
  return report;
}
