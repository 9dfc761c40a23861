import { sql } from 'kysely';
import { catalogueSql, type BulkColumn, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';

/**
 * The set-based statements for the product model's parts (keywords, media, fragments, other
 * groups, every feature occurrence) of the bulk upsert's fast path: each part a batch sends
 * replaces the product's part as a whole, as product-parts.repository.ts does for one product,
 * here with one DELETE and one INSERT per table for the whole batch.
 */

/** The tables of the parts; every one has a product_id column. */
export type PartTable =
  'product_keyword' | 'product_media' | 'product_fragment' | 'product_extra_group' | 'product_feature';

/** Each table's inserted columns, in the order the rows list their values. */
export const PART_COLUMNS = {
  product_keyword: [
    ['product_id', 'integer'],
    ['lang', 'text'],
    ['position', 'integer'],
    ['value', 'text'],
  ],
  product_media: [
    ['product_id', 'integer'],
    ['position', 'integer'],
    ['mime_type', 'text'],
    ['source', 'text'],
    ['descriptions_json', 'json'],
    ['purpose', 'text'],
    ['mime_order', 'integer'],
  ],
  product_fragment: [
    ['product_id', 'integer'],
    ['position', 'integer'],
    ['place', 'text'],
    ['xml', 'text'],
  ],
  product_extra_group: [
    ['product_id', 'integer'],
    ['position', 'integer'],
    ['group_id', 'integer'],
  ],
  product_feature: [
    ['product_id', 'integer'],
    ['feature_id', 'integer'],
    ['occurrence', 'integer'],
    ['funit', 'text'],
    ['position', 'integer'],
    ['values_json', 'json'],
    ['details_json', 'json'],
  ],
} as const satisfies Record<PartTable, readonly BulkColumn[]>;

/** Deletes the rows of `table` of these products (the parts a batch replaces). */
export async function deletePartRows(
  db: WorkspaceDb,
  table: PartTable,
  productIds: readonly number[],
): Promise<void> {
  if (productIds.length === 0) return;
  await sql`DELETE FROM ${sql.table(table)}
    WHERE product_id IN ${catalogueSql(db).idList(productIds)}`.execute(db);
}

/**
 * The characters of bound JSON one statement carries at most (about): a part may hold long
 * values (a fragment up to 1,000,000 characters), and PostgreSQL's jsonb ends at 256 MB.
 */
const STATEMENT_CHARS = 16 * 2 ** 20;

/**
 * Rows one statement writes at most: SQLite runs a statement without a pause, and its triggers
 * make a row of product_feature cost 30-50 µs (the feature-value and feature-language keys) and one
 * of product_text some 20: at 1,000 rows a statement kept the event loop 30-70 ms (measured
 * 2026-11-29), at 250 no statement keeps it much over 10 ms (db/sqlite-dialect.ts gives it a turn
 * between them). More statements cost little: each is one bound JSON parameter.
 */
const STATEMENT_ROWS = 250;

/**
 * Rows in slices of at most STATEMENT_ROWS rows and about STATEMENT_CHARS characters of values
 * (at least one row each).
 */
export function* slices(rows: readonly (readonly unknown[])[]): Generator<(readonly unknown[])[]> {
  let slice: (readonly unknown[])[] = [];
  let chars = 0;
  for (const row of rows) {
    let size = 0;
    for (const value of row) size += typeof value === 'string' ? value.length + 8 : 12;
    if (slice.length >= STATEMENT_ROWS || (slice.length > 0 && chars + size > STATEMENT_CHARS)) {
      yield slice;
      slice = [];
      chars = 0;
    }
    slice.push(row);
    chars += size;
  }
  if (slice.length > 0) yield slice;
}

/** Inserts rows (values in PART_COLUMNS' order of `table`), one bound JSON parameter per statement. */
export async function insertPartRows(
  db: WorkspaceDb,
  table: PartTable,
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  const columns = PART_COLUMNS[table];
  const names = sql.join(columns.map(([name]) => sql.ref(name)));
  const selected = sql.join(columns.map(([name]) => sql.ref(`j.${name}`)));
  for (const slice of slices(rows)) {
    await sql`INSERT INTO ${sql.table(table)} (${names})
      SELECT ${selected} FROM ${catalogueSql(db).bulk.rows(columns, slice)}`.execute(db);
  }
}
