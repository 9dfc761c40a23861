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

export interface TextStateRow {
  product_id: number;
  kind: TextKind;
  lang: string;
  value: string;
}

export interface FeatureStateRow {
  product_id: number;
  ftidref: string;
  own_unit: string | null;
  unit: string | null;
  values_json: string;
}

export async function findProductStates(
  db: WorkspaceDb,
  pids: readonly string[],
): Promise<ProductStateRow[]> {
  if (pids.length === 0) return [];
  const rows = await db
    .selectFrom('product as p')
    .leftJoin('product as m', 'm.id', 'p.master_id')
    .select(['p.id', 'p.supplier_pid', 'm.supplier_pid as master_pid', 'p.group_id'])
    .select(PRODUCT_FIELDS.map((f) => `p.${f.column}` as 'p.ean'))
    .where('p.supplier_pid', 'in', pids)
    .execute();
  return rows as unknown as ProductStateRow[];
}

/**
 * The texts of these kinds and languages (the columns' own: the import compares no others). Each
 * list is one bound parameter, so the statement's text is the same for every batch of an import
 * (SQLite keeps it prepared: db/sqlite.ts's statement cache).
 */
export async function findTextStates(
  db: WorkspaceDb,
  ids: readonly number[],
  kinds: readonly TextKind[],
  langs: readonly string[],
): Promise<TextStateRow[]> {
  if (ids.length === 0 || kinds.length === 0 || langs.length === 0) return [];
  const catalogue = catalogueSql(db);
  const { rows } = await sql<TextStateRow>`SELECT product_id, kind, lang, value FROM product_text
    WHERE product_id IN ${catalogue.idList(ids)} AND kind IN ${catalogue.textList(kinds)}
      AND lang IN ${catalogue.textList(langs)}`.execute(db);
  return rows;
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
