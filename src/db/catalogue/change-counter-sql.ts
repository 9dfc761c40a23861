import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { CountedWork, WorkspaceDb } from './catalogue-sql.js';
import { raiseChangeCounterPostgres } from './change-counter-sql.postgres.js';
import { compiledOnce } from '../compiled-once.js';
import type { WorkspaceDatabase } from '../workspace.schema.js';

/**
 * The change counter's SQL on SQLite, and how each dialect tells whether a transaction changed a
 * row (domain/changes/catalogue-transaction.ts says what the counter and its stamp are for;
 * PostgreSQL's counter is in change-counter-sql.postgres.ts).
 *
 * countChangesSqlite runs a transaction's work and, when it changed a row, raises the counter by
 * one as its last statement, `at()` being the instant its rows were stamped with. The counter's one
 * row also keeps the newest stamp committed; SQLite's one writer passes this statement one
 * transaction at a time, so the stamps it hands out follow the commit order. A write whose `at` is
 * older than that stamp restamps its products and deletions with it: rows still holding `at` in
 * the same instant.
 *
 * Whether the work changed a row: `total_changes()` (the rows the connection has inserted, updated
 * or deleted since it was opened; exact: an upsert that did nothing or an UPDATE that matched no
 * row counts nothing) before the work, compared in the counter's own UPDATE after it, so that a
 * write costs one statement more than its work, not two. The UPDATE asks for no lock of its own:
 * a catalogue transaction holds SQLite's write lock from its BEGIN IMMEDIATE (db/sqlite-dialect.ts).
 * Both statements are compiled once (db/compiled-once.ts).
 */
const totalChanges = compiledOnce<WorkspaceDatabase, { n: number }>(
  (db) => sql<{ n: number }>`SELECT total_changes() AS n`.compile(db),
  [],
);

const raiseIfChanged = compiledOnce<WorkspaceDatabase, { stamp: string }>(
  (db, [at, mark]) =>
    sql<{ stamp: string }>`
      UPDATE change_counter SET value = value + 1, stamp = max(stamp, ${at})
      WHERE id = 1 AND total_changes() <> ${mark}
      RETURNING stamp`.compile(db),
  ['\u0000at', '\u0000mark'],
);

export async function countChangesSqlite<T>(
  trx: WorkspaceDb,
  work: (trx: WorkspaceDb) => Promise<T>,
  at: () => string,
): Promise<CountedWork<T>> {
  const mark = (await totalChanges(trx, [])).rows[0]!.n;
  const result = await work(trx);
  const instant = at();
  const raised = await raiseIfChanged(trx, [instant, mark]);
  const stamp = raised.rows[0]?.stamp;
  if (stamp === undefined) return { result };
  if (stamp <= instant) return { result, stamps: { at: instant, stamp: instant } };
  await sql`UPDATE product SET updated_at = ${stamp} WHERE updated_at = ${instant}`.execute(trx);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE deleted_at = ${instant}`.execute(trx);
  return { result, stamps: { at: instant, stamp } };
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

export async function countChangesPostgres<T>(
  trx: WorkspaceDb,
  work: (trx: WorkspaceDb) => Promise<T>,
  at: () => string,
): Promise<CountedWork<T>> {
  const detector = new RowChangeDetector();
  const result = await work(trx.withPlugin(detector));
  if (!detector.changed) return { result };
  const instant = at();
  return { result, stamps: { at: instant, stamp: await raiseChangeCounterPostgres(trx, instant) } };
}
