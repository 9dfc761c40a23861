import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { ProductFieldColumns } from '../../db/catalogue/product-fields.js';
import { selectProducts, type ProductRow } from '../../db/catalogue/product-list-query.js';

export type { ProductRow, ProductRowQuery } from '../../db/catalogue/product-list-query.js';

export async function findProduct(
  db: WorkspaceDb,
  id: number,
  lang: string,
): Promise<ProductRow | undefined> {
  return selectProducts(db, lang).where('p.id', '=', id).executeTakeFirst();
}

/**
 * A product's revision, its row locked until the transaction ends (PostgreSQL; SQLite has one
 * writer at a time): a change conditional on the revision cannot race with another one.
 */
export async function lockProductRevision(db: WorkspaceDb, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('product')
    .select('revision')
    .where('id', '=', id)
    .modifyEnd(catalogueSql(db).forUpdate)
    .executeTakeFirst();
  return row?.revision;
}

/** Just enough of a product to check that it exists and whether it is a variant. */
export async function findProductCore(
  db: WorkspaceDb,
  id: number,
): Promise<{ id: number; master_id: number | null } | undefined> {
  return db.selectFrom('product').select(['id', 'master_id']).where('id', '=', id).executeTakeFirst();
}

export interface ProductValues extends ProductFieldColumns {
  supplier_pid: string;
  master_id: number | null;
}

export async function insertProduct(db: WorkspaceDb, values: ProductValues, now: string): Promise<number> {
  const row = await db
    .insertInto('product')
    .values({ ...values, group_id: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProduct(
  db: WorkspaceDb,
  id: number,
  patch: Partial<Omit<ProductValues, 'master_id'>>,
  now: string,
): Promise<void> {
  await db
    .updateTable('product')
    .set((eb) => ({ ...patch, updated_at: now, revision: eb('revision', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function deleteProduct(db: WorkspaceDb, id: number): Promise<void> {
  await db.deleteFrom('product').where('id', '=', id).execute();
}

/**
 * Sets updated_at of the given products and of the main products of those that are
 * variants (a change to a variant is a change to its main product too), and raises their
 * revision. Every write to a product row raises its revision: it is the version behind the
 * product's ETag, which must change with every change even within one millisecond.
 */
export async function touchProducts(db: WorkspaceDb, ids: readonly number[], now: string): Promise<void> {
  if (ids.length === 0) return;
  // One IN over a UNION ALL, not `id IN (...) OR id IN (masters)`: PostgreSQL plans that OR as a scan
  // of the whole table (7 ms on 100,000 products, on every text or feature write), SQLite did not.
  const named = db.selectFrom('product as v').where('v.id', 'in', ids);
  await db
    .updateTable('product')
    .set((eb) => ({ updated_at: now, revision: eb('revision', '+', 1) }))
    .where(
      'id',
      'in',
      named.select('v.id').unionAll(named.select((eb) => eb.fn.coalesce('v.master_id', 'v.id').as('id'))),
    )
    .execute();
}
