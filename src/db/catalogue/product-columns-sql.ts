import { sql, type RawBuilder } from 'kysely';
import type { TextKind } from '../workspace.schema.js';
import { catalogueSql, type WorkspaceDb } from './catalogue-sql.js';
import { PRODUCT_FIELDS } from './product-fields.js';

/**
 * A page of products as the columns of a spreadsheet need them (docs/spreadsheets.md, "Memory and
 * speed"): the product rows, the texts of the kinds and languages asked for and the first
 * occurrence of the features asked for, one row per value, three statements for a whole page
 * instead of a product sheet (keywords, media, fragments, JSON built and parsed) per product.
 * The same SQL on both dialects; the lists are each one bound parameter (id-list.ts).
 */
export interface ProductColumnsQuery {
  /** The page's product ids. */
  ids: readonly number[];
  textKinds: readonly TextKind[];
  textLangs: readonly string[];
  ftidrefs: readonly string[];
}

export interface ProductColumnsRow {
  id: number;
  supplier_pid: string;
  master_pid: string | null;
  group_id: number | null;
  updated_at: string;
  [column: string]: string | number | null;
}

export interface TextColumnsRow {
  product_id: number;
  kind: TextKind;
  lang: string;
  value: string;
}

export interface FeatureColumnsRow {
  product_id: number;
  ftidref: string;
  /** The unit it shows: its own, else the definition's. */
  unit: string | null;
  values_json: string;
}

export interface ProductColumnsRows {
  products: ProductColumnsRow[];
  texts: TextColumnsRow[];
  features: FeatureColumnsRow[];
}

const fieldColumns = sql.join(PRODUCT_FIELDS.map((f) => sql.ref(`p.${f.column}`)));

export const productColumnsProducts = (
  db: WorkspaceDb,
  ids: readonly number[],
): RawBuilder<ProductColumnsRow> =>
  sql<ProductColumnsRow>`SELECT p.id, p.supplier_pid, m.supplier_pid AS master_pid, p.group_id, p.updated_at,
      ${fieldColumns}
    FROM product p LEFT JOIN product m ON m.id = p.master_id
    WHERE p.id IN ${catalogueSql(db).idList(ids)} ORDER BY p.id`;

export const productColumnsTexts = (
  db: WorkspaceDb,
  ids: readonly number[],
  kinds: readonly string[],
  langs: readonly string[],
): RawBuilder<TextColumnsRow> => {
  const catalogue = catalogueSql(db);
  return sql<TextColumnsRow>`SELECT t.product_id, t.kind, t.lang, t.value FROM product_text t
    WHERE t.product_id IN ${catalogue.idList(ids)} AND t.kind IN ${catalogue.textList(kinds)}
      AND t.lang IN ${catalogue.textList(langs)}`;
};

export const productColumnsFeatures = (
  db: WorkspaceDb,
  ids: readonly number[],
  ftidrefs: readonly string[],
): RawBuilder<FeatureColumnsRow> => {
  const catalogue = catalogueSql(db);
  // `+pf.feature_id`: SQLite would otherwise start from the features named (their index) and look
  // every one up for every id of the page (300 features: 300,000 lookups a page of 1,000); from
  // the page's ids it reads each product's own features only.
  return sql<FeatureColumnsRow>`SELECT pf.product_id, d.ftidref, COALESCE(pf.funit, d.default_unit) AS unit,
      pf.values_json
    FROM product_feature pf JOIN feature_def d ON d.id = +pf.feature_id
    WHERE pf.product_id IN ${catalogue.idList(ids)} AND pf.occurrence = 1
      AND d.ftidref IN ${catalogue.textList(ftidrefs)}`;
};

/** The three reads with Kysely on `db` (a transaction, or PostgreSQL's pool); a part nobody asked for is not read. */
export async function readProductColumns(
  db: WorkspaceDb,
  q: ProductColumnsQuery,
): Promise<ProductColumnsRows> {
  if (q.ids.length === 0) return { products: [], texts: [], features: [] };
  const products = (await productColumnsProducts(db, q.ids).execute(db)).rows;
  const texts =
    q.textKinds.length === 0 || q.textLangs.length === 0
      ? []
      : (await productColumnsTexts(db, q.ids, q.textKinds, q.textLangs).execute(db)).rows;
  const features =
    q.ftidrefs.length === 0 ? [] : (await productColumnsFeatures(db, q.ids, q.ftidrefs).execute(db)).rows;
  return { products, texts, features };
}
