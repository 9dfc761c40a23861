import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { readerStatement } from '../../db/reader-statement.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import type { WorkspaceDb } from '../products/product.repository.js';

/** The workspace's change counter as committed (or as the transaction `db` sees it). */
export async function readChangeCounter(db: WorkspaceDb): Promise<number> {
  const row = await db.selectFrom('change_counter').select('value').where('id', '=', 1).executeTakeFirst();
  return Number(row?.value ?? 0);
}

const preparedRead = new WeakMap<Database.Database, Database.Statement>();

/**
 * readChangeCounter as a prepared statement on SQLite's read-only connection: the check of
 * If-None-Match on every catalogue read (a few microseconds), never queued behind a write.
 */
export function readChangeCounterPrepared(reader: Database.Database): number {
  let statement = preparedRead.get(reader);
  if (!statement) {
    statement = reader.prepare('SELECT value FROM change_counter WHERE id = 1');
    preparedRead.set(reader, statement);
  }
  const row = statement.get() as { value: number } | undefined;
  return Number(row?.value ?? 0);
}

/**
 * Raises the counter by one: the last statement of a transaction that changed something, `at`
 * being the instant its rows were stamped with. The counter's row also keeps the newest stamp
 * committed; writers pass this statement one at a time (the row's lock, held to the commit, on
 * PostgreSQL; the one writer on SQLite), so the stamps it hands out follow the commit order. A
 * write whose `at` is older than that stamp (it waited for a lock while a later one committed,
 * or its instance's clock is behind) restamps its products and deletions with it: rows still
 * holding `at` in the same instant, which on PostgreSQL are its own (a row another transaction
 * wrote with the same instant and committed moves forward too: delivered once more, never lost).
 * Returns the instant the write's rows hold now.
 */
export async function raiseChangeCounter(db: WorkspaceDb, at: string): Promise<string> {
  const greatest = dialectOf(db) === 'postgres' ? sql`GREATEST(stamp, ${at})` : sql`max(stamp, ${at})`;
  const result = await sql<{ stamp: string }>`
    UPDATE change_counter SET value = value + 1, stamp = ${greatest} WHERE id = 1 RETURNING stamp`.execute(
    db,
  );
  const stamp = result.rows[0]?.stamp;
  if (stamp === undefined || stamp <= at) return at;
  if (dialectOf(db) === 'postgres') {
    // Only rows this transaction can take at once: its own, and rows others committed in the same
    // instant. A row another transaction holds is not waited for: holding the counter's row while
    // waiting for it deadlocked with that transaction's own counter statement. Such a row needs no
    // move (its committed stamp was handed out by its own commit, before this one).
    await sql`UPDATE product SET updated_at = ${stamp} WHERE id IN (
      SELECT id FROM product WHERE updated_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
    await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE id IN (
      SELECT id FROM product_deletion WHERE deleted_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
    return stamp;
  }
  await sql`UPDATE product SET updated_at = ${stamp} WHERE updated_at = ${at}`.execute(db);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE deleted_at = ${at}`.execute(db);
  return stamp;
}

/** The counter with its newest stamp (null before the first change): the watermark of a delta sync. */
export interface ChangeState {
  value: number;
  stamp: string | null;
}

const changeStateQuery = (db: WorkspaceDb) =>
  db.selectFrom('change_counter').select(['value', 'stamp']).where('id', '=', 1);
const changeStateStatement = readerStatement<WorkspaceDatabase>((db) => changeStateQuery(db).compile(), [1]);

/** The committed change state; on SQLite's read-only connection a prepared statement. */
export async function readChangeState(db: WorkspaceDb, reader?: Database.Database): Promise<ChangeState> {
  const row = reader
    ? (changeStateStatement(db, reader).get(1) as { value: number; stamp: string } | undefined)
    : await changeStateQuery(db).executeTakeFirst();
  return { value: Number(row?.value ?? 0), stamp: row?.stamp ? row.stamp : null };
}

/**
 * SQLite: the rows the connection has inserted, updated or deleted since it was opened
 * (`total_changes()`, exact: an upsert that did nothing or an UPDATE that matched no row
 * counts nothing).
 */
export async function totalChanges(db: WorkspaceDb): Promise<number> {
  const result = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
