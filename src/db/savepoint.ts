import { sql, type Kysely } from 'kysely';

/**
 * Runs `work` inside a savepoint of the caller's transaction: when it throws, what it wrote is
 * rolled back and the transaction goes on (on PostgreSQL a failed statement would otherwise
 * abort the whole transaction). The same SQL on SQLite and PostgreSQL.
 */
export async function withSavepoint<DB, T>(
  trx: Kysely<DB>,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  await sql`SAVEPOINT ${sql.id(name)}`.execute(trx);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT ${sql.id(name)}`.execute(trx);
    await sql`RELEASE SAVEPOINT ${sql.id(name)}`.execute(trx);
    throw error;
  }
  await sql`RELEASE SAVEPOINT ${sql.id(name)}`.execute(trx);
  return result;
}
