import { sql, type SelectQueryBuilder } from 'kysely';
import type { WorkspaceDatabase } from '../workspace.schema.js';
import { catalogueSql, type WorkspaceDb } from './catalogue-sql.js';
import { DTO_FIELDS, type DtoFieldColumns } from './product-fields.js';
import { variantCountSql } from './shared-sql.js';

/**
 * The product list's queries (GET /api/product, the agents' list and search tools, a group's
 * products), written once with Kysely: the reads run them on the caller's transaction or
 * PostgreSQL's pool as they are, and on SQLite's read-only connection as statements prepared
 * from the SQL they compile to (catalogue-reads.sqlite.ts).
 */

/** A product's row with ProductDto's text fields (product-fields.ts). */
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

/** ProductDto's fields only: the sheet's own fields are read with the sheet. */
const FIELD_REFS = DTO_FIELDS.map((f) => `p.${f.column}` as const);

/** Products with their variant count and their name in one statement. */
export function selectProducts(db: WorkspaceDb, lang: string) {
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

type ProductSelect<O> = SelectQueryBuilder<WorkspaceDatabase & { p: WorkspaceDatabase['product'] }, 'p', O>;

/** The filters of a row query, keyset paging and order included, on a selection from `product as p`. */
export function applyFilters<O>(
  db: WorkspaceDb,
  query: ProductSelect<O>,
  q: ProductRowQuery,
): ProductSelect<O> {
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

/** Products in id order, filtered, as rows. */
export function productListRowsQuery(db: WorkspaceDb, q: ProductRowQuery) {
  return applyFilters(db, selectProducts(db, q.lang), q);
}

/** Products in id order, filtered, as rows (id, dto: the ProductDto JSON the database writes). */
export function productListJsonQuery(db: WorkspaceDb, q: ProductRowQuery) {
  return applyFilters(
    db,
    db.selectFrom('product as p').select(['p.id', catalogueSql(db).product.json(q.lang).as('dto')]),
    q,
  );
}

function integerLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a row limit: ${limit}`);
  return limit;
}
