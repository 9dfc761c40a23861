import { sql, type RawBuilder } from 'kysely';
import type { TextKind } from '../workspace.schema.js';
import { catalogueSql, type WorkspaceDb } from './catalogue-sql.js';
import { PRODUCT_FIELDS } from './product-fields.js';

/**
 * A page of products as the columns of a spreadsheet need them (docs/spreadsheets.md, "Memory and
 * speed"): the product rows with the value of each text asked for as a column of their own, and
 * the first occurrence of the features asked for, one row per feature, two statements for a whole
 * page instead of a product sheet (keywords, media, fragments, JSON built and parsed) per product.
 * The same SQL on both dialects; the lists are each one bound parameter (id-list.ts). The texts
 * were rows of their own (half a million for the benchmark's export), which cost the driver more
 * in making rows than SQLite its lookups.
 *
 * Rows are arrays in the statements' column order (better-sqlite3's raw mode; PostgreSQL's rows
 * taken as their values), not objects: a page of the benchmark's export is some 16,000 rows, and
 * an object per row with its keys was a good part of the export's garbage. The features come
 * ordered by product, so that a row of the spreadsheet is put together by walking the two lists
 * side by side, without a map from product to its parts.
 */
export interface ProductColumnsQuery {
  /** The page's product ids. */
  ids: readonly number[];
  /** The texts a row shows, each a column of the product rows (after the fields). */
  texts: readonly { kind: TextKind; lang: string }[];
  ftidrefs: readonly string[];
}

/**
 * id, supplier_pid, the main product's supplier_pid (null for a main product), the first group's
 * id, updated_at, then PRODUCT_FIELDS' columns in their order (from PRODUCT_COLUMNS_FIELDS on),
 * then the value of each text asked for (null: none), in the query's order.
 */
export type ProductColumnsRow = [
  id: number | string,
  supplierPid: string,
  masterPid: string | null,
  groupId: number | string | null,
  updatedAt: string,
  ...fields: (string | null)[],
];
export const PRODUCT_COLUMNS_FIELDS = 5;

/** The unit it shows (its own, else the definition's) and the values' stored JSON list. */
export type FeatureColumnsRow = [
  productId: number | string,
  ftidref: string,
  unit: string | null,
  valuesJson: string,
];

export interface ProductColumnsRows {
  /** In id order. */
  products: ProductColumnsRow[];
  /** Ordered by product. */
  features: FeatureColumnsRow[];
}

const fieldColumns = sql.join(PRODUCT_FIELDS.map((f) => sql.ref(`p.${f.column}`)));

export const productColumnsProducts = (
  db: WorkspaceDb,
  ids: readonly number[],
  texts: ProductColumnsQuery['texts'],
): RawBuilder<unknown> => {
  // One lookup a text in the unique (product_id, kind, lang) index. Named, so that PostgreSQL's row
  // objects (each column "value" otherwise) keep every one.
  const textColumns = texts.map(
    ({ kind, lang }, i) =>
      sql`, (SELECT t.value FROM product_text t WHERE t.product_id = p.id AND t.kind = ${kind} AND t.lang = ${lang}) AS ${sql.id(`text_${i}`)}`,
  );
  return sql`SELECT p.id, p.supplier_pid, m.supplier_pid AS master_pid, p.group_id, p.updated_at,
      ${fieldColumns}${sql.join(textColumns, sql``)}
    FROM product p LEFT JOIN product m ON m.id = p.master_id
    WHERE p.id IN ${catalogueSql(db).idList(ids)} ORDER BY p.id`;
};

export const productColumnsFeatures = (
  db: WorkspaceDb,
  ids: readonly number[],
  ftidrefs: readonly string[],
): RawBuilder<unknown> => {
  const catalogue = catalogueSql(db);
  // `+pf.feature_id`: SQLite would otherwise start from the features named (their index) and look
  // every one up for every id of the page (300 features: 300,000 lookups a page of 1,000); from
  // the page's ids it reads each product's own features only.
  return sql`SELECT pf.product_id, d.ftidref, COALESCE(pf.funit, d.default_unit) AS unit, pf.values_json
    FROM product_feature pf JOIN feature_def d ON d.id = +pf.feature_id
    WHERE pf.product_id IN ${catalogue.idList(ids)} AND pf.occurrence = 1
      AND d.ftidref IN ${catalogue.textList(ftidrefs)}
    ORDER BY pf.product_id`;
};

/** A row object's values in its columns' order (the driver keeps the statement's order). */
const valuesOf = <T>(rows: readonly object[]) => rows.map((row) => Object.values(row) as T);

/** The two reads with Kysely on `db` (a transaction, or PostgreSQL's pool); features nobody asked for are not read. */
export async function readProductColumns(
  db: WorkspaceDb,
  q: ProductColumnsQuery,
): Promise<ProductColumnsRows> {
  if (q.ids.length === 0) return { products: [], features: [] };
  const read = async <T>(query: RawBuilder<unknown>) =>
    valuesOf<T>((await query.execute(db)).rows as object[]);
  const products = await read<ProductColumnsRow>(productColumnsProducts(db, q.ids, q.texts));
  const features =
    q.ftidrefs.length === 0
      ? []
      : await read<FeatureColumnsRow>(productColumnsFeatures(db, q.ids, q.ftidrefs));
  return { products, features };
}
