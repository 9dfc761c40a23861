import { inPoolTransaction } from './pool-transaction.js';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { redactDatabaseUrl } from '../database-config.js';
import { openPostgres, schemaExists } from '../postgres.js';
import { SHARED_SCHEMA } from '../system.schema.js';
import { SYSTEM_TABLES } from './system-tables.js';
import { planTables, postgresTables, quoteName, sqliteTables } from './table-plan.js';
import { copyAndVerify, type MovedTable } from './verified-copy.js';

const COPIED = Object.keys(SYSTEM_TABLES).filter((name) => SYSTEM_TABLES[name] === 'copy');

/** The move only fills an empty database: merging two installations' users and ids is another task. */
export class TargetNotEmptyError extends Error {}

/** Refuses a target whose shared schema holds any user or workspace. */
export async function assertEmptyTarget(client: pg.ClientBase, url: string): Promise<void> {
  const { rows } = await client.query<{ users: number; workspaces: number }>(
    'SELECT (SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM workspace) AS workspaces',
  );
  const { users, workspaces } = rows[0]!;
  if (Number(users) > 0 || Number(workspaces) > 0) {
    throw new TargetNotEmptyError(
      `the database ${redactDatabaseUrl(url)} is not empty (${users} users, ${workspaces} workspaces): ` +
        'pim db move copies only into a database without pim data; nothing was changed',
    );
  }
}

/** Whether the target already has pim's shared schema; an unreachable server counts as yes (never dropped). */
export async function sharedSchemaExists(url: string): Promise<boolean> {
  const handle = openPostgres<unknown>(url, 'public', { max: 1 });
  try {
    return await schemaExists(handle.db, SHARED_SCHEMA);
  } catch {
    return true;
  } finally {
    await handle.close();
  }
}

/**
 * Drops the shared schema a failed move created, unless it holds a user or workspace by now (an
 * instance that started on the target meanwhile keeps its set-up): nothing of the attempt stays.
 */
export async function dropCreatedSharedSchema(pool: pg.Pool): Promise<void> {
  await inPoolTransaction(pool, async (client) => {
    await client.query(`LOCK TABLE ${COPIED.map(quoteName).join(', ')} IN EXCLUSIVE MODE`);
    const { rows } = await client.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM "user") + (SELECT count(*) FROM workspace) AS n',
    );
    if (Number(rows[0]!.n) === 0) await client.query(`DROP SCHEMA ${SHARED_SCHEMA} CASCADE`);
  });
}

/**
 * Copies the users (with their password hashes) and the workspace registry into the shared
 * schema, in one transaction, after the workspaces themselves: a workspace is registered only
 * once its schema holds its verified catalogue, and `schemas` says which schema that is. The
 * tables are locked against other writers (an instance starting on the same database would do
 * its first-run set-up) and found empty again under that lock before anything is written.
 */
export async function moveSystemTables(
  source: Database.Database,
  pool: pg.Pool,
  url: string,
  schemas: Map<number, string>,
): Promise<MovedTable[]> {
  return inPoolTransaction(pool, async (client) => {
    await client.query(`LOCK TABLE ${COPIED.map(quoteName).join(', ')} IN EXCLUSIVE MODE`);
    await assertEmptyTarget(client, url);
    const only = <T>(tables: Map<string, T>) =>
      new Map([...tables].filter(([name]) => COPIED.includes(name)));
    const plan = planTables(
      'system.sqlite',
      only(sqliteTables(source)),
      only(await postgresTables(client, SHARED_SCHEMA)),
    );
    const workspace = plan.find((t) => t.name === 'workspace')!;
    const id = workspace.columns.findIndex((c) => c.name === 'id');
    const dbSchema = workspace.columns.findIndex((c) => c.name === 'db_schema');
    return copyAndVerify(source, client, plan, {
      transforms: {
        // On SQLite a workspace is the file in its folder; in the registry it is now its schema.
        workspace: (row) => {
          const schema = schemas.get(Number(row[id]));
          if (!schema) throw new Error(`workspace ${String(row[id])} was not copied`);
          const mapped = [...row];
          mapped[dbSchema] = schema;
          return mapped;
        },
      },
    });
  });
}
