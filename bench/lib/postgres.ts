import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { REPO_ROOT } from './processes.js';

/** The PostgreSQL server `--db postgres` runs on (a database is created per run and dropped after it). */
export const BENCH_PG_SERVER = process.env.PIM_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrl(name: string): string {
  const url = new URL(BENCH_PG_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_PG_SERVER });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(runId: string): Promise<{ name: string; url: string }> {
  const name = `pimbench_${runId}`;
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  return { name, url: databaseUrl(name) };
}

export async function dropBenchDatabase(name: string): Promise<void> {
  await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Moves the generated SQLite catalogue into PostgreSQL with `pim db move`, as a user moving up
 * would: the bench data is generated once, on SQLite, and the move is measured on the way.
 */
export function moveToPostgres(dataDir: string, url: string): { seconds: number; output: string } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['bin/pim.js', '--data-dir', dataDir, 'db', 'move', '--to', url], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, PIM_DATABASE_URL: '', PIM_LOG_LEVEL: 'warn' },
  });
  const seconds = (performance.now() - started) / 1000;
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.status !== 0) throw new Error(`pim db move failed (${run.status}): ${output}`);
  return { seconds: Math.round(seconds * 10) / 10, output };
}
