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
 * The change counter's per-dialect SQL (domain/changes/catalogue-transaction.ts and
 * change-counter.repository.ts say what the counter and its stamp are for).
 *
 * raiseChangeCounter raises the counter by one: the last statement of a transaction that changed
 * something, `at` being the instant its rows were stamped with. The counter's row also keeps the
 * newest stamp committed; writers pass this statement one at a time (the row's lock, held to the
 * commit, on PostgreSQL; the one writer on SQLite), so the stamps it hands out follow the commit
 * order. A write whose `at` is older than that stamp restamps its products and deletions with it:
 * rows still holding `at` in the same instant. Returns the instant the write's rows hold now.
 */
async function raise(db: WorkspaceDb, greatest: ReturnType<typeof sql>) {
  const result = await sql<{ stamp: string }>`
    UPDATE change_counter SET value = value + 1, stamp = ${greatest} WHERE id = 1 RETURNING stamp`.execute(
    db,
  );
  return result.rows[0]?.stamp;
}

export async function raiseChangeCounterSqlite(db: WorkspaceDb, at: string): Promise<string> {
  const stamp = await raise(db, sql`max(stamp, ${at})`);
  if (stamp === undefined || stamp <= at) return at;
  await sql`UPDATE product SET updated_at = ${stamp} WHERE updated_at = ${at}`.execute(db);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE deleted_at = ${at}`.execute(db);
  return stamp;
}

export async function raiseChangeCounterPostgres(db: WorkspaceDb, at: string): Promise<string> {
  const stamp = await raise(db, sql`GREATEST(stamp, ${at})`);
  if (stamp === undefined || stamp <= at) return at;
  // Only rows this transaction can take at once: its own, and rows others committed in the same
  // instant (same stamps: a row of another transaction moves forward too, delivered once more,
  // never lost). A row another transaction holds is not waited for: holding the counter's row
  // while waiting for it deadlocked with that transaction's own counter statement. Such a row
  // needs no move (its committed stamp was handed out by its own commit, before this one).
  await sql`UPDATE product SET updated_at = ${stamp} WHERE id IN (
    SELECT id FROM product WHERE updated_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE id IN (
    SELECT id FROM product_deletion WHERE deleted_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
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
