import { sql } from 'kysely';
import { catalogueSql, type BulkColumn, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { PRODUCT_FIELDS, type ProductFieldValues } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { dropFirstFromOthers } from './product-parts.repository.js';
import { slices } from './product-bulk-parts.repository.js';

/**
 * The set-based statements of the bulk upsert's fast path: each writes (or reads) a whole batch
 * with one statement and one bound parameter (product-bulk-sql.ts), where the single services
 * run about a hundred statements per document. They store exactly what those services store;
 * the decisions (which documents, which rows) are made before, in product-bulk-plan.ts.
 */

export interface BulkKeyRow {
  id: number;
  supplier_pid: string;
  master_id: number | null;
  group_id: number | null;
}

/** The products with these supplierPids, with what the plan needs of them. */
export async function findBulkKeys(db: WorkspaceDb, pids: readonly string[]): Promise<BulkKeyRow[]> {
  if (pids.length === 0) return [];
  const result = await sql<BulkKeyRow>`SELECT id, supplier_pid, master_id, group_id FROM product
    WHERE supplier_pid IN ${catalogueSql(db).bulk.textList(pids)}`.execute(db);
  return result.rows;
}

/** Which of these groups exist; on PostgreSQL their rows stay undeletable until the commit. */
export async function findGroupIds(db: WorkspaceDb, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const result = await sql<{
    id: number;
  }>`SELECT id FROM product_group WHERE id IN ${catalogueSql(db).idList(ids)}
    ${catalogueSql(db).keyShare}`.execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/** The groups after the first of these products, in order, by product (those with any). */
export async function findExtraGroups(
  db: WorkspaceDb,
  productIds: readonly number[],
): Promise<Map<number, number[]>> {
  const lists = new Map<number, number[]>();
  if (productIds.length === 0) return lists;
  const result = await sql<{ product_id: number; group_id: number }>`SELECT product_id, group_id
    FROM product_extra_group WHERE product_id IN ${catalogueSql(db).idList(productIds)}
    ORDER BY product_id, position`.execute(db);
  for (const row of result.rows) {
    const list = lists.get(row.product_id);
    if (list) list.push(row.group_id);
    else lists.set(row.product_id, [row.group_id]);
  }
  return lists;
}

/** Feature definition ids by ftidref, and the ids of those this call created. */
export interface DefinitionIds {
  byFtidref: Map<string, number>;
  created: number[];
}

/** Feature definition ids by ftidref, creating the missing definitions (no names, no default unit). */
export async function ensureDefinitions(
  db: WorkspaceDb,
  ftidrefs: readonly string[],
): Promise<DefinitionIds> {
  if (ftidrefs.length === 0) return { byFtidref: new Map(), created: [] };
  const bulk = catalogueSql(db).bulk;
  // WHERE true: SQLite would read ON CONFLICT as part of a join without it.
  // In one order for every transaction, as insertProducts inserts, for the same reason.
  const inserted = await sql<{ id: number }>`INSERT INTO feature_def (ftidref)
    SELECT j.ftidref FROM ${bulk.rows(
      [['ftidref', 'text']],
      inLockOrder(ftidrefs).map((f) => [f]),
    )} WHERE true
    ON CONFLICT (ftidref) DO NOTHING
    RETURNING id`.execute(db);
  const result = await sql<{ id: number; ftidref: string }>`SELECT id, ftidref FROM feature_def
    WHERE ftidref IN ${bulk.textList(ftidrefs)}`.execute(db);
  return {
    byFtidref: new Map(result.rows.map((row) => [row.ftidref, row.id])),
    created: inserted.rows.map((row) => row.id),
  };
}

/**
 * Drops those of these definitions that no product has: created ahead of a batch's documents
 * for features of documents that were then refused. A refused document leaves nothing behind.
 */
export async function dropUnusedDefinitions(db: WorkspaceDb, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`DELETE FROM feature_def WHERE id IN ${catalogueSql(db).idList(ids)}
    AND NOT EXISTS (SELECT 1 FROM product_feature WHERE product_feature.feature_id = feature_def.id)`.execute(
    db,
  );
}

export interface StoredFeatureRow {
  product_id: number;
  feature_id: number;
  /** The product's own unit (NULL: the definition's). */
  funit: string | null;
  position: number;
  /** 1 for the occurrence a document's features are merged into. */
  occurrence: number;
  /** TextEntryDto[] as stored (entry-list.rules.ts). */
  values_json: string;
}

/** The features these products have, with their places in the products' feature order and their values. */
export async function findStoredFeatures(db: WorkspaceDb, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  const result = await sql<StoredFeatureRow>`SELECT product_id, feature_id, funit, position, occurrence,
      values_json
    FROM product_feature WHERE product_id IN ${catalogueSql(db).idList(productIds)}`.execute(db);
  return result.rows;
}

/** A product the batch creates. */
export interface NewProductRow {
  supplierPid: string;
  fields: ProductFieldValues;
  masterId: number | null;
  groupId: number | null;
}

/** The inserted columns after the order and the drawn id, in the order newProductValues lists them. */
const INSERTED: readonly BulkColumn[] = [
  ['supplier_pid', 'text'],
  ...PRODUCT_FIELDS.map((f): BulkColumn => [f.column, 'text']),
  ['master_id', 'integer'],
  ['group_id', 'integer'],
];
const NEW_PRODUCT: readonly BulkColumn[] = [['ord', 'integer'], ['id', 'integer'], ...INSERTED];

const newProductValues = (row: NewProductRow) => [
  row.supplierPid,
  ...PRODUCT_FIELDS.map((f) => row.fields[f.key] ?? null),
  row.masterId,
  row.groupId,
];

/** Strings in one order every transaction agrees on (UTF-16 code units), for taking locks. */
export const inLockOrder = (values: Iterable<string>): string[] =>
  [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Inserts products; their ids rise in the order given. Returns their ids by supplierPid.
 *
 * On PostgreSQL the rows go in in supplierPid order, with ids drawn beforehand in the batch's:
 * two transactions inserting the same new supplierPids each wait on the unique index for the
 * other's uncommitted row, and in different orders they deadlocked (two overlapping batches, one
 * written in reverse). In one order the later one waits for the first, then finds its rows taken.
 */
export async function insertProducts(
  db: WorkspaceDb,
  rows: readonly NewProductRow[],
  at: string,
): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const bulk = catalogueSql(db).bulk;
  const ids = await bulk.drawProductIds?.(db, rows.length);
  const rank = new Map(inLockOrder(rows.map((row) => row.supplierPid)).map((pid, i) => [pid, i]));
  const data = bulk.rows(
    NEW_PRODUCT,
    rows.map((row, i) =>
      ids
        ? [rank.get(row.supplierPid), ids[i], ...newProductValues(row)]
        : [i, null, ...newProductValues(row)],
    ),
  );
  const names = [...(ids ? ['id'] : []), ...INSERTED.map(([name]) => name)];
  const result = await sql<{ id: number; supplier_pid: string }>`INSERT INTO product
      (${sql.join(names.map((n) => sql.ref(n)))}, created_at, updated_at)
    SELECT ${sql.join(names.map((n) => sql.ref(`j.${n}`)))}, ${at}, ${at}
    FROM ${data} ORDER BY j.ord
    RETURNING id, supplier_pid`.execute(db);
  return new Map(result.rows.map((row) => [row.supplier_pid, row.id]));
}

/** A change to an existing product: a field changes only when it was sent. */
export interface ProductChange {
  id: number;
  fields: ProductFieldValues;
  groupId?: number | null;
}

/** The changed columns: in the changes' rows `value` holds the new value, `set` is 1 when it was sent. */
const CHANGED: readonly { column: string; value: string; set: string; type: BulkColumn[1] }[] = [
  ...PRODUCT_FIELDS.map((f, i) => ({
    column: f.column,
    value: `f${i}`,
    set: `f${i}_set`,
    type: 'text' as const,
  })),
  { column: 'group_id', value: 'group_id', set: 'group_set', type: 'integer' },
];
const CHANGE: readonly BulkColumn[] = [
  ['id', 'integer'],
  ...CHANGED.flatMap(({ value, set, type }): BulkColumn[] => [
    [set, 'integer'],
    [value, type],
  ]),
];

const flagged = (value: unknown) => (value === undefined ? [0, null] : [1, value]);

/**
 * Applies the changes and touches every product named (updated_at and revision, as
 * touchProducts does): one statement for all of them.
 */
export async function changeProducts(db: WorkspaceDb, changes: readonly ProductChange[], at: string) {
  if (changes.length === 0) return;
  const data = catalogueSql(db).bulk.rows(
    CHANGE,
    changes.map((c) => [
      c.id,
      ...PRODUCT_FIELDS.flatMap((f) => flagged(c.fields[f.key])),
      ...flagged(c.groupId),
    ]),
  );
  const sets = CHANGED.map(
    ({ column, value, set }) =>
      sql`${sql.ref(column)} = CASE WHEN ${sql.ref(`j.${set}`)} = 1 THEN ${sql.ref(`j.${value}`)} ELSE ${sql.ref(`product.${column}`)} END`,
  );
  await sql`UPDATE product SET ${sql.join(sets)}, updated_at = ${at}, revision = product.revision + 1
    FROM ${data} WHERE product.id = j.id`.execute(db);
  await dropFirstFromOthers(
    db,
    changes.filter((c) => typeof c.groupId === 'number').map((c) => c.id),
  );
}

/** Touches these products only (updated_at, revision): the main products of changed variants. */
export async function touchOnly(db: WorkspaceDb, ids: readonly number[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE product SET updated_at = ${at}, revision = revision + 1
    WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
}

/**
 * Inserts the rows (one JSON parameter) into `table`; a row whose `conflict` key exists gets its
 * `update` columns set instead. `WHERE true` keeps SQLite from reading ON CONFLICT as a join's ON.
 */
async function upsertRows(
  db: WorkspaceDb,
  table: string,
  columns: readonly BulkColumn[],
  conflict: readonly string[],
  update: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name);
  const sets = update.map((name) => sql`${sql.ref(name)} = ${sql.ref(`excluded.${name}`)}`);
  // In slices: at most one row per key, so no slice's rows conflict with another's.
  for (const slice of slices(rows)) {
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))})
      SELECT ${sql.join(names.map((n) => sql.ref(`j.${n}`)))} FROM ${catalogueSql(db).bulk.rows(columns, slice)} WHERE true
      ON CONFLICT (${sql.join(conflict.map((n) => sql.ref(n)))})
      DO UPDATE SET ${sql.join(sets)}`.execute(db);
  }
}

/** [product_id, kind, lang, value]; at most one row per (product, kind, language). */
export type TextRow = [number, TextKind, string, string];

export function upsertTexts(db: WorkspaceDb, rows: readonly TextRow[]): Promise<void> {
  const columns: BulkColumn[] = [
    ['product_id', 'integer'],
    ['kind', 'text'],
    ['lang', 'text'],
    ['value', 'text'],
  ];
  return upsertRows(db, 'product_text', columns, ['product_id', 'kind', 'lang'], ['value'], rows);
}

/**
 * [product_id, feature_id, funit, position, values_json]: a new feature at its place, or the unit
 * and values of the first occurrence of a feature the product has (its position is then left as it is).
 */
export type ProductFeatureRow = [number, number, string | null, number, string];

export function upsertProductFeatures(db: WorkspaceDb, rows: readonly ProductFeatureRow[]): Promise<void> {
  const columns: BulkColumn[] = [
    ['product_id', 'integer'],
    ['feature_id', 'integer'],
    ['funit', 'text'],
    ['position', 'integer'],
    ['values_json', 'json'],
  ];
  return upsertRows(
    db,
    'product_feature',
    [...columns, ['occurrence', 'integer']],
    ['product_id', 'feature_id', 'occurrence'],
    ['funit', 'values_json'],
    rows.map((row) => [...row, 1]),
  );
}
