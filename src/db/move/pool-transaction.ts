import type pg from 'pg';

/**
 * Runs `work` on one connection of the pool inside a transaction: committed when it returns,
 * rolled back when it throws (the rollback's own failure, on a broken connection, must not hide
 * the error that caused it). The move's steps each need their statements on one connection.
 */
export async function inPoolTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
