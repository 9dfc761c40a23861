import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { WorkspaceDb } from './catalogue-sql.js';

/**
 * The change counter's SQL on SQLite, and how each dialect tells whether a transaction changed a
 * row (domain/changes/catalogue-transaction.ts says what the counter and its stamp are for;
 * PostgreSQL's counter is in change-counter-sql.postgres.ts).
 *
 * raiseChangeCounterSqlite raises the counter by one: the last statement of a transaction that
 * changed something, `at` being the instant its rows were stamped with. The counter's one row also
 * keeps the newest stamp committed; SQLite's one writer passes this statement one transaction at a
 * time, so the stamps it hands out follow the commit order. A write whose `at` is older than that
 * stamp restamps its products and deletions with it: rows still holding `at` in the same instant.
 * Returns the instant the write's rows hold now.
 */
export async function raiseChangeCounterSqlite(db: WorkspaceDb, at: string): Promise<string> {
  const result = await sql<{ stamp: string }>`
    UPDATE change_counter SET value = value + 1, stamp = max(stamp, ${at}) WHERE id = 1
    RETURNING stamp`.execute(db);
  const stamp = result.rows[0]?.stamp;
  if (stamp === undefined || stamp <= at) return at;
  await sql`UPDATE product SET updated_at = ${stamp} WHERE updated_at = ${at}`.execute(db);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE deleted_at = ${at}`.execute(db);
  return stamp;
}

/**
 * SQLite: the rows the connection has inserted, updated or deleted since it was opened
 * (`total_changes()`, exact: an upsert that did nothing or an UPDATE that matched no row
 * counts nothing), compared before and after: not in the UPDATE's WHERE, because an UPDATE takes
 * SQLite's write lock even when it changes nothing, and a read transaction (the group tree) must
 * not ask for it.
 */
async function totalChanges(db: WorkspaceDb): Promise<number> {
  const result = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

export async function trackChangesSqlite<T>(trx: WorkspaceDb, work: (trx: WorkspaceDb) => Promise<T>) {
  const mark = await totalChanges(trx);
  const result = await work(trx);
  return { result, changed: (await totalChanges(trx)) !== mark };
}

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

export async function trackChangesPostgres<T>(trx: WorkspaceDb, work: (trx: WorkspaceDb) => Promise<T>) {
  const detector = new RowChangeDetector();
  const result = await work(trx.withPlugin(detector));
  return { result, changed: detector.changed };
}
