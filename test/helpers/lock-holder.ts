import { expect } from 'vitest';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { storageChoice } from '../../src/db/database-config.js';
import { TEST_BACKEND } from './backend.js';
import type { TestServer } from './server.js';

/**
 * Another program holding a workspace's write lock, on a connection of its own: on SQLite a
 * worker thread's (as `pim mcp`, the CLI or a backup tool would hold it), so that what the server
 * does meanwhile cannot depend on this thread's event loop; on PostgreSQL a client of its own
 * (another instance, an administrator's psql) holding the product table in EXCLUSIVE mode, which
 * lets plain reads through and stops every write of products.
 */
export interface LockHolder {
  /** Whether the holder's transaction still holds the lock (asked of the holder). */
  held(): Promise<boolean>;
  /**
   * Whether a connection waits for the holder's lock now; undefined where the database cannot
   * tell (SQLite: a waiting writer is invisible to other connections).
   */
  waitedFor(): Promise<boolean | undefined>;
  /** Ends the transaction (it wrote nothing) and closes the connection. */
  release(): Promise<void>;
}

/** Where the workspace lives: its folder (SQLite) or its schema (PostgreSQL). */
export interface WorkspacePlace {
  dataDir: string;
  rootpath: string;
  workspaceId: number;
}

/** Where the server's active workspace lives, as its API names it (its folder; its file on SQLite). */
export async function activeWorkspacePlace(server: TestServer, token: string): Promise<WorkspacePlace> {
  const res = await server.request<{ id: number; rootpath: string; active: boolean }[]>(
    'GET',
    '/api/workspace',
    {
      token,
    },
  );
  const active = res.body.data!.find((w) => w.active)!;
  return { dataDir: server.dataDir, rootpath: active.rootpath, workspaceId: active.id };
}

/** Takes the write lock of a workspace; resolves once it holds it. */
export function holdWriteLock(place: WorkspacePlace): Promise<LockHolder> {
  return TEST_BACKEND === 'postgres'
    ? holdPostgres(place)
    : holdSqlite(join(place.rootpath, 'workspace.sqlite'));
}

const HOLDER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage({ held: db.inTransaction });
parentPort.on('message', (message) => {
  if (message === 'held?') parentPort.postMessage({ held: db.inTransaction });
  if (message === 'release') {
    db.exec('COMMIT');
    db.close();
    parentPort.postMessage({ released: true });
    parentPort.close();
  }
});
`;

async function holdSqlite(file: string): Promise<LockHolder> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(HOLDER_SOURCE, { eval: true, workerData: { file, driver } });
  const ask = async (message: string): Promise<Record<string, unknown>> => {
    const answer = once(worker, 'message');
    worker.postMessage(message);
    return (await answer)[0] as Record<string, unknown>;
  };
  const [first] = (await once(worker, 'message')) as [{ held: boolean }];
  if (!first.held) throw new Error(`the holder could not lock ${file}`);
  return {
    held: async () => (await ask('held?')).held === true,
    waitedFor: async () => undefined,
    async release() {
      await ask('release');
      await worker.terminate();
    },
  };
}

async function holdPostgres(place: WorkspacePlace): Promise<LockHolder> {
  const choice = storageChoice(place.dataDir);
  if (choice.kind !== 'postgres') throw new Error('the data folder is not in team mode');
  const client = new pg.Client({ connectionString: choice.url, application_name: 'lock holder' });
  await client.connect();
  try {
    const { rows } = await client.query<{ db_schema: string }>(
      'SELECT db_schema FROM pim.workspace WHERE id = $1',
      [place.workspaceId],
    );
    await client.query(`SET search_path = ${pg.escapeIdentifier(rows[0]!.db_schema)}`);
    await client.query('BEGIN');
    await client.query('LOCK TABLE product IN EXCLUSIVE MODE');
  } catch (error) {
    await client.end();
    throw error;
  }
  const count = async (query: string): Promise<number> =>
    Number((await client.query<{ n: string }>(query)).rows[0]!.n);
  return {
    held: async () =>
      (await count(`SELECT count(*) AS n FROM pg_locks WHERE pid = pg_backend_pid()
        AND relation = 'product'::regclass AND mode = 'ExclusiveLock' AND granted`)) > 0,
    waitedFor: async () =>
      (await count(`SELECT count(*) AS n FROM pg_stat_activity
        WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))`)) > 0,
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** The answer to a write refused because another process held the lock past pim's wait. */
export function expectDatabaseBusy(res: {
  status: number;
  text: string;
  headers: Headers;
  body: unknown;
}): void {
  expect(res.status, res.text).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.body).toEqual({
    success: false,
    error: 'The database is locked by another process; nothing was changed; try again shortly',
    code: 'DATABASE_BUSY',
  });
}
