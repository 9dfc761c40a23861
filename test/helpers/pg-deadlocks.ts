import pg from 'pg';
import { storageChoice } from '../../src/db/database-config.js';
import { pollUntil } from './http.js';

/**
 * The deadlocks PostgreSQL counted in a data folder's database, read once no client of it is left
 * (stop the application first). A backend adds its counts to the database's when a transaction
 * ends at most once a second (else after 10 s idle), and at the latest as it exits, which it does
 * before it leaves pg_stat_activity: once none is listed there, every count is in.
 */
export async function deadlocksOnceDisconnected(dataDir: string): Promise<number> {
  const choice = storageChoice(dataDir, {});
  if (choice.kind !== 'postgres') throw new Error(`${dataDir} is not set up for PostgreSQL`);
  const client = new pg.Client({ connectionString: choice.url });
  await client.connect();
  try {
    await pollUntil('no other client is connected to the database', async () => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
           AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      return Number(rows[0]!.n) === 0;
    });
    const { rows } = await client.query<{ n: string }>(
      'SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}
