import type Database from 'better-sqlite3';
import { sql } from 'kysely';
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

/** Raises the counter by one: the last statement of a transaction that changed something. */
export async function raiseChangeCounter(db: WorkspaceDb): Promise<void> {
  await sql`UPDATE change_counter SET value = value + 1 WHERE id = 1`.execute(db);
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
