import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { PRODUCT_FIELDS, type ProductFieldColumns } from '../../db/catalogue/product-fields.js';
import { compiledOnce } from '../../db/compiled-once.js';
import { selectProducts, type ProductRow } from '../../db/catalogue/product-list-query.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';

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

/** The columns a new product's row is written with, in the order insertProduct passes them. */
const INSERT_COLUMNS = [
  'supplier_pid',
  ...PRODUCT_FIELDS.map((f) => f.column),
  'master_id',
  'group_id',
  'created_at',
  'updated_at',
] as const;

const insertStatement = compiledOnce<WorkspaceDatabase, { id: number }>(
  (db, values) =>
    db
      .insertInto('product')
      .values(Object.fromEntries(INSERT_COLUMNS.map((column, i) => [column, values[i]])) as never)
      .returning('id')
      .compile(),
  INSERT_COLUMNS.map((column) => `\u0000${column}`),
);

export async function insertProduct(db: WorkspaceDb, values: ProductValues, now: string): Promise<number> {
  const row: Record<string, unknown> = { ...values, group_id: null, created_at: now, updated_at: now };
  const result = await insertStatement(
    db,
    INSERT_COLUMNS.map((column) => row[column]),
  );
  return result.rows[0]!.id;
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
  // A single product (a text's or feature's write) by the statement compiled once.
  if (ids.length === 1) await touchOneStatement(db, [ids[0], now]);
  else await touchQuery(db, ids, now).execute();
}

function touchQuery(db: WorkspaceDb, ids: readonly unknown[], now: unknown) {
  // One IN over a UNION ALL, not `id IN (...) OR id IN (masters)`: PostgreSQL plans that OR as a scan
  // of the whole table (7 ms on 100,000 products, on every text or feature write), SQLite did not.
  const named = db.selectFrom('product as v').where('v.id', 'in', ids as number[]);
  return db
    .updateTable('product')
    .set((eb) => ({ updated_at: now as string, revision: eb('revision', '+', 1) }))
    .where(
      'id',
      'in',
      named.select('v.id').unionAll(named.select((eb) => eb.fn.coalesce('v.master_id', 'v.id').as('id'))),
    );
}

const touchOneStatement = compiledOnce<WorkspaceDatabase, never>(
  (db, [id, now]) => touchQuery(db, [id], now).compile(),
  ['\u0000id', '\u0000now'],
);
