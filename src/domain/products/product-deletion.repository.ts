import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { sql } from 'kysely';

export interface DeletionRow {
  id: number;
  supplier_pid: string;
  deleted_at: string;
}

/**
 * Records the deletion of products and of their variants (which the foreign key's cascade deletes
 * with them), before the rows go, in the same transaction; and forgets deletions older than
 * `keepSince`. A product id is never reused, and every deleting transaction holds the product's
 * row lock (product-lock.repository.ts), so an id is recorded once.
 */
export async function recordDeletions(
  db: WorkspaceDb,
  ids: readonly number[],
  at: string,
  keepSince: string,
): Promise<void> {
  await db.deleteFrom('product_deletion').where('deleted_at', '<', keepSince).execute();
  if (ids.length === 0) return;
  const list = catalogueSql(db).idList(ids);
  await sql`
    INSERT INTO product_deletion (id, supplier_pid, deleted_at)
    SELECT p.id, p.supplier_pid, ${at} FROM product p
    WHERE p.id IN ${list} OR p.master_id IN ${list}`.execute(db);
}

/** Deletions at or after `since`, oldest first, then by id. */
export async function listDeletions(db: WorkspaceDb, since: string): Promise<DeletionRow[]> {
  return db
    .selectFrom('product_deletion')
    .select(['id', 'supplier_pid', 'deleted_at'])
    .where('deleted_at', '>=', since)
    .orderBy('deleted_at')
    .orderBy('id')
    .execute();
}
