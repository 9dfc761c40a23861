import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { saveDatabaseUrl, storageChoice } from '../../src/db/database-config.js';
import { dropSchema, schemaExists } from '../../src/db/postgres.js';
import type { SystemDatabase } from '../../src/db/system.schema.js';

/**
 * The storage the black-box tests run on: SQLite or PostgreSQL, as the vitest project says
 * (`PIM_TEST_BACKEND`, set by vitest.config.ts; SQLite when unset). The same tests run in both
 * projects; a data folder made by newDataDir is set up for the backend as `pim setup --database`
 * would, so every process on it (the server, the CLI, `pim mcp`) uses the same storage.
 */
export const TEST_BACKEND = testBackend(process.env.PIM_TEST_BACKEND);

/**
 * The unit project runs once and sets `none`: a file there that reaches for the backend would
 * never run on PostgreSQL, so it fails here instead. A misspelt backend fails too, rather than
 * quietly running on SQLite.
 */
function testBackend(name: string | undefined): 'sqlite' | 'postgres' {
  if (name === undefined || name === '' || name === 'sqlite') return 'sqlite';
  if (name === 'postgres') return 'postgres';
  if (name === 'none')
    throw new Error(
      'This test depends on the storage backend (it imports test/helpers/backend.ts) but runs in the ' +
        'unit project, which runs once: let the sqlite and postgres projects in vitest.config.ts run it',
    );
  throw new Error(`PIM_TEST_BACKEND=${name}: expected sqlite or postgres`);
}

/** A PostgreSQL server the tests may create databases on (trust authentication on the machines). */
export const PG_SERVER_URL = process.env.PIM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Test databases are named `pimtest_<run>_<random>`, where <run> is the start of the test run in
 * seconds (base 36), set once by the global set-up and inherited by the workers: a run drops its
 * own databases at its end, and at its start only those of runs older than STALE_AFTER_S (a
 * killed run), never those of another run still going on the same server.
 */
export const TEST_DATABASE_PREFIX = 'pimtest_';
const RUN_VARIABLE = 'PIM_TEST_RUN';
const STALE_AFTER_S = 6 * 60 * 60;

/**
 * This run's part of the names (the global set-up sets it; a lone worker makes its own): its start
 * in seconds (base 36, read back for the stale check) and a random part, so that two runs started
 * in the same second (two vitest processes side by side) never drop each other's databases.
 */
export function testRunId(): string {
  process.env[RUN_VARIABLE] ??=
    `${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(3).toString('hex')}`;
  return process.env[RUN_VARIABLE]!;
}

const databases = new Map<string, string>();

/** The URL of another database on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database on the test server; returns its URL. Empty by default (what `pim setup
 * --database` and team mode's first start meet); `fromTemplate` copies the run's template instead,
 * a database that pim's own system migrations brought up to date (postgres-global-setup.ts), as
 * every data folder is once pim has opened it.
 */
export async function createTestDatabase(
  options: { fromTemplate?: boolean } = {},
): Promise<{ name: string; url: string }> {
  const name = `${TEST_DATABASE_PREFIX}${testRunId()}_${randomBytes(6).toString('hex')}`;
  const template = options.fromTemplate ? process.env[TEMPLATE_VARIABLE] : undefined;
  await withServer((client) =>
    client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${checkedName(template)}` : ''}`),
  );
  return { name, url: databaseUrl(name) };
}

/**
 * The run's template database (set by the postgres project's global set-up, inherited by the
 * workers): each test server's data folder starts as a copy of it, which spares every start the
 * system schema's migrations (on the 2-core machine 0.2-0.7 s of each of some hundreds of starts).
 */
export const TEMPLATE_VARIABLE = 'PIM_TEST_PG_TEMPLATE';

/** The name of the run's template database (dropped with the run's other databases). */
export function templateDatabaseName(): string {
  return `${TEST_DATABASE_PREFIX}${testRunId()}_template`;
}

function checkedName(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database name: ${name}`);
  return name;
}

/** Drops a test database, ending its connections (an instance that was not stopped). */
export async function dropTestDatabase(name: string): Promise<void> {
  await withServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** A new, empty data folder on the test backend (with its own PostgreSQL database there). */
export async function newDataDir(prefix = 'pim-test-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (TEST_BACKEND === 'postgres') {
    const { name, url } = await createTestDatabase({ fromTemplate: true });
    databases.set(dir, name);
    saveDatabaseUrl(dir, url);
  }
  return dir;
}

/** Removes a data folder made by newDataDir, and its database. */
export async function removeDataDir(dir: string | undefined): Promise<void> {
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
  const name = databases.get(dir);
  if (name) {
    databases.delete(dir);
    await dropTestDatabase(name);
  }
}

/**
 * Drops test databases: those of this run (at its end), or those of runs that started more than
 * STALE_AFTER_S ago (left by a killed run).
 */
export async function dropTestDatabases(which: 'this-run' | 'stale'): Promise<void> {
  const run = testRunId();
  const now = Math.floor(Date.now() / 1000);
  await withServer(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [TEST_DATABASE_PREFIX],
    );
    for (const { datname } of rows) {
      const started = parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0] ?? '', 36);
      const drop =
        which === 'this-run'
          ? datname.startsWith(`${TEST_DATABASE_PREFIX}${run}_`)
          : now - started > STALE_AFTER_S;
      if (drop && /^[a-z0-9_]+$/.test(datname))
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}

/**
 * Removes a workspace's database behind the application's back, as a failing disk or an
 * administrator would: its SQLite file, or on PostgreSQL its schema.
 */
export async function removeWorkspaceDatabase(
  app: { stores: { shared: Kysely<SystemDatabase> } },
  workspace: { id: number; rootpath: string },
): Promise<void> {
  if (TEST_BACKEND === 'sqlite') return rmSync(join(workspace.rootpath, 'workspace.sqlite'));
  await dropSchema(app.stores.shared as Kysely<unknown>, await schemaOf(app, workspace.id));
}

/** Whether a workspace's database exists: its SQLite file, or its PostgreSQL schema. */
export async function workspaceDatabaseExists(
  app: { stores: { shared: Kysely<SystemDatabase> } },
  workspace: { id: number; rootpath: string },
): Promise<boolean> {
  if (TEST_BACKEND === 'sqlite') return existsSync(join(workspace.rootpath, 'workspace.sqlite'));
  return schemaExists(app.stores.shared as Kysely<unknown>, await schemaOf(app, workspace.id));
}

async function schemaOf(app: { stores: { shared: Kysely<SystemDatabase> } }, id: number): Promise<string> {
  const row = await app.stores.shared
    .selectFrom('workspace')
    .select('db_schema')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.db_schema!;
}

/**
 * A value of a workspace's `meta` table, read from outside the application (as a backup or
 * support tool would): from the SQLite file in its folder, or from its PostgreSQL schema.
 */
export async function workspaceMeta(
  dataDir: string,
  folder: string,
  key: string,
): Promise<string | undefined> {
  if (TEST_BACKEND === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(folder, 'workspace.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
        { value: string } | undefined;
      return row?.value;
    } finally {
      db.close();
    }
  }
  const choice = storageChoice(dataDir, {});
  if (choice.kind !== 'postgres') throw new Error(`${dataDir} is not set up for PostgreSQL`);
  const client = new pg.Client({ connectionString: choice.url });
  await client.connect();
  try {
    const ws = await client.query<{ db_schema: string }>(
      'SELECT db_schema FROM pim.workspace WHERE rootpath = $1',
      [folder],
    );
    const schema = ws.rows[0]?.db_schema;
    if (!schema) throw new Error(`no workspace registered at ${folder}`);
    const meta = await client.query<{ value: string }>(`SELECT value FROM ${schema}.meta WHERE key = $1`, [
      key,
    ]);
    return meta.rows[0]?.value;
  } finally {
    await client.end();
  }
}
