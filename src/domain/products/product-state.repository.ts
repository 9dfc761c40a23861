import { PRODUCT_FIELDS } from '../../db/catalogue/product-fields.js';
import { sql } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { TextKind } from '../../db/workspace.schema.js';

export interface ProductStateRow {
  id: number;
  supplier_pid: string;
  master_pid: string | null;
  group_id: number | null;
  [column: string]: string | number | null;
}

export interface FeatureStateRow {
  product_id: number;
  ftidref: string;
  own_unit: string | null;
  unit: string | null;
  values_json: string;
}

/** A text a comparison reads: its kind and language. */
export interface TextWant {
  kind: TextKind;
  lang: string;
}

/**
 * The products of these supplierPids with their main product's supplierPid, group, fields and,
 * as column `text_<i>`, the value of `texts[i]` (null: the product has none). One row a product:
 * the texts as rows of their own (one a product and text, half a million for the benchmark's file)
 * cost more in the driver's row making than SQLite's own lookups (docs/spreadsheets.md, "Import").
 * The statement's text follows the texts' number only, so it is the same for every batch of an
 * import (SQLite keeps it prepared).
 */
export async function findProductStates(
  db: WorkspaceDb,
  pids: readonly string[],
  texts: readonly TextWant[],
): Promise<ProductStateRow[]> {
  if (pids.length === 0) return [];
  let query = db
    .selectFrom('product as p')
    .leftJoin('product as m', 'm.id', 'p.master_id')
    .select(['p.id', 'p.supplier_pid', 'm.supplier_pid as master_pid', 'p.group_id'])
    .select(PRODUCT_FIELDS.map((f) => `p.${f.column}` as 'p.ean'));
  if (texts.length > 0)
    query = query.select((eb) =>
      texts.map(({ kind, lang }, i) =>
        eb
          .selectFrom('product_text as t')
          .select('t.value')
          .whereRef('t.product_id', '=', 'p.id')
          .where('t.kind', '=', kind)
          .where('t.lang', '=', lang)
          .as(`text_${i}` as 'ean'),
      ),
    );
  const rows = await query.where('p.supplier_pid', 'in', pids).execute();
  return rows as unknown as ProductStateRow[];
}

/**
 * The first occurrence of each of these features (those a spreadsheet's columns address), its
 * values as the stored JSON text. `+pf.feature_id`: SQLite would otherwise start from the named
 * features' index and look each up for each id (as product-columns-sql.ts says).
 */
export async function findFeatureStates(
  db: WorkspaceDb,
  ids: readonly number[],
  ftidrefs: readonly string[],
): Promise<FeatureStateRow[]> {
  if (ids.length === 0 || ftidrefs.length === 0) return [];
  const catalogue = catalogueSql(db);
  const { rows } = await sql<FeatureStateRow>`SELECT pf.product_id, d.ftidref, pf.funit AS own_unit,
      COALESCE(pf.funit, d.default_unit) AS unit, pf.values_json
    FROM product_feature pf JOIN feature_def d ON d.id = +pf.feature_id
    WHERE pf.product_id IN ${catalogue.idList(ids)} AND pf.occurrence = 1
      AND d.ftidref IN ${catalogue.textList(ftidrefs)}`.execute(db);
  return rows;
}
