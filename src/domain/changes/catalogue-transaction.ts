import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Clock } from '../clock.js';
import type { WorkspaceDb } from '../products/product.repository.js';
import { raiseChangeCounter, totalChanges } from './change-counter.repository.js';
import { restampResult } from './restamp-result.js';

/**
 * PostgreSQL: notices whether any statement run through the transaction inserted, updated or
 * deleted a row (the command's row count, as SQLite's total_changes() counts them). Row locks
 * (FOR KEY SHARE), table locks and sequences change no row and count nothing, which the
 * transaction id (assigned by all of them) could not tell apart.
 */
class RowChangeDetector implements KyselyPlugin {
  changed = false;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (!this.changed && (args.result.numAffectedRows ?? 0n) > 0n) this.changed = true;
    return args.result;
  }
}

/**
 * Runs `work` in a new transaction on a workspace database, and when the transaction changed
 * any row, raises the workspace's change counter by one as its last statement: committed with
 * the change or rolled back with it, whichever process or instance wrote. A transaction that
 * changed nothing (a read, an update to nothing) leaves the counter alone.
 *
 * Every catalogue write runs through here: `useWorkspace(...).transaction` and `runInTransaction`
 * (context.ts) start their transactions with it, and services nested in a caller's transaction
 * join it, so the outer one counts once for all. The counter's row is locked only from that last
 * statement to the commit, so writers on PostgreSQL queue on it only for a moment.
 *
 * That statement also puts the transaction's stamps in commit order: `clock` is the instant the
 * work stamped its rows with (a OnceClock, shared by the services nested in it), and when a
 * write that committed first holds a later stamp, this one's rows take that stamp
 * (raiseChangeCounter). A delta sync by updatedSince then never misses a change that committed
 * after it read.
 */
export function catalogueTransaction<T>(
  db: WorkspaceDb,
  work: (trx: WorkspaceDb) => Promise<T>,
  clock: Clock,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') {
      const detector = new RowChangeDetector();
      const result = await work(trx.withPlugin(detector));
      return detector.changed ? counted(trx, result, clock) : result;
    }
    // Compared here, not in the UPDATE's WHERE: an UPDATE takes SQLite's write lock even when it
    // changes nothing, and a read transaction (the group tree) must not ask for it.
    const mark = await totalChanges(trx);
    const result = await work(trx);
    return (await totalChanges(trx)) !== mark ? counted(trx, result, clock) : result;
  });
}

/** Raises the counter; when that moved the write's stamps, its answer names the stamp they hold now. */
async function counted<T>(trx: WorkspaceDb, result: T, clock: Clock): Promise<T> {
  const at = clock.now().toISOString();
  const stamp = await raiseChangeCounter(trx, at);
  return stamp === at ? result : restampResult(result, at, stamp);
}
