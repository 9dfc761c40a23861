import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { Clock } from '../clock.js';
import { restampResult } from './restamp-result.js';

/**
 * Runs `work` in a new transaction on a workspace database, and when the transaction changed
 * any row, raises the workspace's change counter by one as its last statement: committed with
 * the change or rolled back with it, whichever process or instance wrote. A transaction that
 * changed nothing (a read, an update to nothing) leaves the counter alone.
 *
 * Every catalogue write runs through here: `useWorkspace(...).transaction` and `runInTransaction`
 * (context.ts) start their transactions with it, and services nested in a caller's transaction
 * join it, so the outer one counts once for all. A counter row is locked only from that last
 * statement to the commit, and on PostgreSQL writers take rows no other writer holds, so they do
 * not queue on it (db/catalogue/change-counter-sql.postgres.ts).
 *
 * That statement also puts the transaction's stamps in commit order: `clock` is the instant the
 * work stamped its rows with (a OnceClock, shared by the services nested in it), and when a
 * write that committed first holds a later stamp, this one's rows take that stamp
 * (countChanges). A delta sync by updatedSince from the watermark then never misses a change
 * that committed after it read.
 */
export function catalogueTransaction<T>(
  db: WorkspaceDb,
  work: (trx: WorkspaceDb) => Promise<T>,
  clock: Clock,
): Promise<T> {
  return catalogueSql(db).writeTransaction(db, async (trx) => {
    const { result, stamps } = await catalogueSql(trx).countChanges(trx, work, () =>
      clock.now().toISOString(),
    );
    return !stamps || stamps.stamp === stamps.at ? result : restampResult(result, stamps.at, stamps.stamp);
  });
}
