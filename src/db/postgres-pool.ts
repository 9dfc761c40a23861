import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { isQueryTimeout } from './connection-errors.js';

/**
 * The pool as Kysely sees it, with one rule added: a connection on which the server did not
 * answer a statement within the query timeout is finished. node-postgres gives up on the
 * statement but keeps it on the wire, so every later statement on that connection would queue
 * behind it and wait out a timeout of its own: the ROLLBACK of a transaction doubled the wait
 * of a request caught in a stall. Instead, later statements on it fail at once with the same
 * error, and it leaves the pool closed (released with the error), never handed out again.
 */
export function discardingTimedOut(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let timedOut: Error | undefined;
      const query = async (text: string, parameters: readonly unknown[]) => {
        if (timedOut) throw timedOut;
        try {
          return await client.query(text, parameters as unknown[]);
        } catch (error) {
          if (isQueryTimeout(error)) timedOut = error as Error;
          throw error;
        }
      };
      // Kysely streams through cursors only when given a cursor class; pim gives none.
      return {
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client.release(timedOut),
      };
    },
    end: () => pool.end(),
  };
}
