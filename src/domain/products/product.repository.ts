import type Database from 'better-sqlite3';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import { readerStatement } from '../../db/reader-statement.js';
import { productSql, variantCountSql } from './product-sql.js';

/** A workspace database or a transaction on it: repositories work on either. */
export type WorkspaceDb = Kysely<WorkspaceDatabase>;

export interface ProductRow {
  id: number;
  supplier_pid: string;
  supplier_id_ref: string | null;
  ean: string | null;
  manufacturer_pid: string | null;
  master_id: number | null;
  created_at: string;
  updated_at: string;
  revision: number;
  variant_count: number;
  name: string;
}

/**
 * ProductDto as JSON written by the database (the fields, order and rules of toDto in
 * product.service.ts; tests compare both) for the product aliased `p`.
 */
export function productJsonSql(db: WorkspaceDb, lang: string) {
  return productSql(db).json(lang);
}

/** The name of the product aliased `alias` (ProductDto.name's rules), for JSON built in SQL. */
export function productNameSql(db: WorkspaceDb, lang: string, alias: string) {
  return productSql(db).name(lang, alias);
}

/** Products with their variant count and their name in one statement. */
function selectProducts(db: WorkspaceDb, lang: string) {
  return db
    .selectFrom('product as p')
    .select([
      'p.id',
      'p.supplier_pid',
      'p.supplier_id_ref',
      'p.ean',
      'p.manufacturer_pid',
      'p.master_id',
      'p.created_at',
      'p.updated_at',
      'p.revision',
      variantCountSql.as('variant_count'),
      productSql(db).name(lang, 'p').as('name'),
    ]);
}

export async function findProduct(
  db: WorkspaceDb,
  id: number,
  lang: string,
): Promise<ProductRow | undefined> {
  return selectProducts(db, lang).where('p.id', '=', id).executeTakeFirst();
}

const LANG = '\u0000lang';

const productJsonStatement = readerStatement<WorkspaceDatabase>(
  (db) =>
    db
      .selectFrom('product as p')
      .select(['p.revision', productJsonSql(db, LANG).as('dto')])
      .where('p.id', '=', -1)
      .compile(),
  [LANG, -1],
  'raw',
);

/**
 * A product's revision and its ProductDto as JSON text written by SQLite (productJsonSql), on the
 * workspace's read-only connection: GET /api/product/{id} sends the text as it comes, with no row
 * object, DTO or serialiser in between. Raw rows: no column names are built per call.
 */
export function findProductJsonPrepared(
  db: WorkspaceDb,
  reader: Database.Database,
  id: number,
  lang: string,
): [revision: number, json: string] | undefined {
  return productJsonStatement(db, reader).get(lang, id) as [number, string] | undefined;
}

const revisionQuery = (db: WorkspaceDb, id: number) =>
  db.selectFrom('product').select('revision').where('id', '=', id);
const revisionStatement = readerStatement<WorkspaceDatabase>(
  (db) => revisionQuery(db, -1).compile(),
  [-1],
  'pluck',
);

/**
 * A product's revision (undefined when there is no such product): one lookup by primary key,
 * the whole cost of answering a GET with a matching If-None-Match. On SQLite's read-only
 * connection as a prepared statement when `reader` is given.
 */
export async function findProductRevision(
  db: WorkspaceDb,
  id: number,
  reader?: Database.Database,
): Promise<number | undefined> {
  if (reader) return revisionStatement(db, reader).get(id) as number | undefined;
  return (await revisionQuery(db, id).executeTakeFirst())?.revision;
}

/**
 * A product's revision, its row locked until the transaction ends (PostgreSQL; SQLite has one
 * writer at a time): a change conditional on the revision cannot race with another one.
 */
export async function lockProductRevision(db: WorkspaceDb, id: number): Promise<number | undefined> {
  const query = revisionQuery(db, id);
  const row = await (dialectOf(db) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
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
  /** LIKE pattern, already escaped with backslash. */
  likePattern?: string;
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
  if (q.likePattern !== undefined) {
    const pattern = q.likePattern;
    const like = productSql(db).likeIgnoringCase;
    result = result.where(
      sql<boolean>`(${like(sql.ref('p.supplier_pid'), pattern)} OR EXISTS (
        SELECT 1 FROM product_text t
        WHERE t.product_id = p.id AND t.kind = 'DESCRIPTIONSHORT' AND ${like(sql.ref('t.value'), pattern)}))`,
    );
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

/** A chunk of the product list as JSON: `json` holds the ProductDto objects joined by commas. */
export interface ProductJsonChunk {
  /** UTF-8 bytes: as a BLOB the text is never decoded into a JavaScript string and encoded again. */
  json: Buffer | null;
  lastId: number | null;
  count: number;
  /**
   * Whether the selection has no rows after this chunk: SQLite's chunk is all it selected, so
   * fewer than the limit is the end; PostgreSQL's may end at the budget, so only an empty one is.
   */
  ended: boolean;
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
export async function listProductJsonChunk(
  db: WorkspaceDb,
  q: ProductRowQuery,
  budget = Number.MAX_SAFE_INTEGER,
): Promise<ProductJsonChunk> {
  const joined = productSql(db).joinedJson().as('json');
  const lastId = sql<number | null>`max(c.id)`.as('lastId');
  const count = sql<number>`count(*)`.as('count');
  if (dialectOf(db) === 'postgres') {
    const chunk = await db
      .selectFrom(withinBudget(selectProductJson(db, q), budget).as('c'))
      .select([joined, lastId, count])
      .executeTakeFirstOrThrow();
    return { ...chunk, count: Number(chunk.count), ended: Number(chunk.count) === 0 };
  }
  const chunk = await db
    .selectFrom(selectProductJson(db, q).as('c'))
    .select([joined, lastId, count])
    .executeTakeFirstOrThrow();
  return { ...chunk, ended: q.limit === undefined || chunk.count < q.limit };
}

/**
 * PostgreSQL: of the rows (id, dto) in id order, those whose JSON begins within `budget` bytes (the
 * first always); with `counted`, each with the number of rows there were in all (`total`), so that
 * a page can tell a cut from its end. A window over rows already built: no second read of the names.
 */
function withinBudget(rows: ReturnType<typeof selectProductJson>, budget: number, counted = false) {
  const total = counted ? sql`count(*) OVER ()` : sql`0`;
  return sql<{ id: number; dto: string; total: number }>`(SELECT w.id, w.dto, w.total FROM (
      SELECT r.id, r.dto, ${total} AS total,
        sum(octet_length(r.dto)) OVER (ORDER BY r.id) - octet_length(r.dto) AS before
      FROM (${rows}) r) w
    WHERE w.before < ${budget})`;
}

/** A page of the product list as ProductDto JSON: the items joined by commas (UTF-8; null: none). */
export interface ProductJsonPage {
  json: Uint8Array | null;
  lastId: number | null;
  /** Whether more products of the selection follow the page. */
  more: boolean;
  /** PostgreSQL: the page would pass the budget (the page is then empty). */
  tooLarge?: boolean;
}

/**
 * One page (`limit` products) of a selection as JSON. SQLite: the chunk query (one BLOB, never
 * decoded) and one index probe after its last id, both in process. PostgreSQL: the probe would be
 * a second round trip (measured 375 -> 455 µs per page), so one query for limit + 1 rows as before.
 */
export async function listProductJsonPage(
  db: WorkspaceDb,
  q: ProductRowQuery & { limit: number },
  budget = Number.MAX_SAFE_INTEGER,
): Promise<ProductJsonPage> {
  if (dialectOf(db) === 'postgres') {
    const selected = selectProductJson(db, { ...q, limit: q.limit + 1 });
    let rows: { id: number; dto: string }[];
    // Pages of up to 100 (delta syncs take 100) are read whole: at most about 600 MB of rows even
    // with names of 1,000,000 characters, each its own string. Larger ones are cut at the budget.
    if (q.limit <= 100) rows = await selected.execute();
    else {
      const cut = await db
        .selectFrom(withinBudget(selected, budget, true).as('c'))
        .select(['c.id', 'c.dto', 'c.total'])
        .orderBy('c.id')
        .execute();
      // Cut before its end: more than `budget` bytes (the first row always comes).
      if (cut.length < Math.min(Number(cut[0]?.total ?? 0), q.limit + 1)) {
        return { json: null, lastId: null, more: false, tooLarge: true };
      }
      rows = cut;
    }
    const items = rows.slice(0, q.limit);
    return {
      json: items.length === 0 ? null : Buffer.from(items.map((row) => row.dto).join(',')),
      lastId: items.at(-1)?.id ?? null,
      more: rows.length > q.limit,
    };
  }
  const page = await listProductJsonChunk(db, q);
  if (page.ended || page.lastId === null) return { json: page.json, lastId: page.lastId, more: false };
  const next = await applyFilters(db, db.selectFrom('product as p').select('p.id'), {
    ...q,
    afterId: page.lastId,
    limit: 1,
  }).executeTakeFirst();
  return { json: page.json, lastId: page.lastId, more: next !== undefined };
}

function selectProductJson(db: WorkspaceDb, q: ProductRowQuery) {
  return applyFilters(
    db,
    db.selectFrom('product as p').select(['p.id', productJsonSql(db, q.lang).as('dto')]),
    q,
  );
}

export interface ProductValues {
  supplier_pid: string;
  supplier_id_ref: string | null;
  ean: string | null;
  manufacturer_pid: string | null;
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
