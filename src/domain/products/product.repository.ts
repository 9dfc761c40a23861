import { sql, type SelectQueryBuilder } from 'kysely';
import {
  catalogueSql,
  type ProductJsonChunk,
  type ProductJsonPage,
  type WorkspaceDb,
} from '../../db/catalogue/catalogue-sql.js';
import {
  DTO_FIELDS,
  type DtoFieldColumns,
  type ProductFieldColumns,
} from '../../db/catalogue/product-fields.js';
import { variantCountSql } from '../../db/catalogue/shared-sql.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';

/** A product's row with ProductDto's text fields (db/catalogue/product-fields.ts). */
export interface ProductRow extends DtoFieldColumns {
  id: number;
  supplier_pid: string;
  master_id: number | null;
  created_at: string;
  updated_at: string;
  revision: number;
  variant_count: number;
  name: string;
}

/** ProductDto's fields only: the sheet's own fields are read with the sheet. */
const FIELD_REFS = DTO_FIELDS.map((f) => `p.${f.column}` as const);

/** Products with their variant count and their name in one statement. */
function selectProducts(db: WorkspaceDb, lang: string) {
  return db
    .selectFrom('product as p')
    .select([
      'p.id',
      'p.supplier_pid',
      ...FIELD_REFS,
      'p.master_id',
      'p.created_at',
      'p.updated_at',
      'p.revision',
      variantCountSql.as('variant_count'),
      catalogueSql(db).product.name(lang, 'p').as('name'),
    ]);
}

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

export interface ProductRowQuery {
  lang: string;
  /** Include variants; ignored when groupId is set (then all members count). */
  all: boolean;
  groupId?: number;
  afterId?: number;
  limit?: number;
  updatedSince?: string;
  supplierPid?: string;
  ean?: string;
  /** `q`: the text and its LIKE pattern (escaped with backslash). */
  search?: { text: string; pattern: string };
}

type ProductSelect<O> = SelectQueryBuilder<WorkspaceDatabase & { p: WorkspaceDatabase['product'] }, 'p', O>;

/** The filters of a row query, keyset paging and order included, on a selection from `product as p`. */
function applyFilters<O>(db: WorkspaceDb, query: ProductSelect<O>, q: ProductRowQuery): ProductSelect<O> {
  let result = query;
  if (q.groupId !== undefined) result = result.where('p.group_id', '=', q.groupId);
  else if (!q.all) result = result.where('p.master_id', 'is', null);
  if (q.afterId !== undefined) result = result.where('p.id', '>', q.afterId);
  if (q.updatedSince !== undefined) result = result.where('p.updated_at', '>=', q.updatedSince);
  if (q.supplierPid !== undefined) result = result.where('p.supplier_pid', '=', q.supplierPid);
  if (q.ean !== undefined) result = result.where('p.ean', '=', q.ean);
  if (q.search !== undefined) {
    result = result.where(catalogueSql(db).product.matchesSearch(q.search.text, q.search.pattern));
  }
  result = result.orderBy('p.id');
  // The limit as a literal: SQLite re-prepares a statement at every run when its LIMIT is a bound
  // parameter (its plan may depend on the value), 15-20 µs of a page of 100. Validated integers only.
  if (q.limit !== undefined) result = result.limit(sql.lit(integerLimit(q.limit)));
  return result;
}

/** Products in id order, filtered; keyset paging via afterId and limit. */
export async function listProductRows(db: WorkspaceDb, q: ProductRowQuery): Promise<ProductRow[]> {
  return applyFilters(db, selectProducts(db, q.lang), q).execute();
}

/**
 * Like listProductRows, but the database writes the ProductDto JSON itself (the fields, order and
 * rules of toDto in product.service.ts; a test compares both). For long lists, turning a
 * million column values into JavaScript values and back into JSON cost more than the query
 * (100,000 products: 0.24 s instead of 0.68 s).
 *
 * On PostgreSQL the chunk holds, of its rows in order, those that begin within `budget` bytes
 * (at least one; `count` and `lastId` tell which): its JSON reaches JavaScript as one string (the
 * bytea's hex), which Node cannot hold beyond 512 MB, and node-postgres builds it inside a socket
 * handler, where that error would end the process. A name may hold 1,000,000 characters. SQLite's
 * chunk is a BLOB, and one over SQLite's limit (about 1 GB) is refused (SQLITE_TOOBIG) before
 * anything reaches JavaScript: the caller reads it again in halves.
 */
export function listProductJsonChunk(
  db: WorkspaceDb,
  q: ProductRowQuery,
  budget = Number.MAX_SAFE_INTEGER,
): Promise<ProductJsonChunk> {
  return catalogueSql(db).list.chunk(db, selectProductJson(db, q), q.limit, budget);
}

/**
 * One page (`limit` products) of a selection as JSON, and whether more follow (db/catalogue/
 * product-list-sql.*.ts: SQLite probes after the page's last id, PostgreSQL reads one row more).
 */
export function listProductJsonPage(
  db: WorkspaceDb,
  q: ProductRowQuery & { limit: number },
  budget = Number.MAX_SAFE_INTEGER,
): Promise<ProductJsonPage> {
  const after = async (lastId: number) =>
    (await applyFilters(db, db.selectFrom('product as p').select('p.id'), {
      ...q,
      afterId: lastId,
      limit: 1,
    }).executeTakeFirst()) !== undefined;
  return catalogueSql(db).list.page(
    db,
    (limit) => selectProductJson(db, { ...q, limit }),
    q.limit,
    budget,
    after,
  );
}

function selectProductJson(db: WorkspaceDb, q: ProductRowQuery) {
  return applyFilters(
    db,
    db.selectFrom('product as p').select(['p.id', catalogueSql(db).product.json(q.lang).as('dto')]),
    q,
  );
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

function integerLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a row limit: ${limit}`);
  return limit;
}
