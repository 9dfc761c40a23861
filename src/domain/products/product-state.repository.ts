import { PRODUCT_FIELDS } from '../../db/catalogue/product-fields.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
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

export async function findTextStates(db: WorkspaceDb, ids: readonly number[]): Promise<TextStateRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('product_text')
    .select(['product_id', 'kind', 'lang', 'value'])
    .where('product_id', 'in', ids)
    .execute();
}

/** The first occurrence of each feature (the one a spreadsheet's columns address). */
export async function findFeatureStates(db: WorkspaceDb, ids: readonly number[]): Promise<FeatureStateRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('product_feature as pf')
    .innerJoin('feature_def as d', 'd.id', 'pf.feature_id')
    .select((eb) => [
      'pf.product_id',
      'd.ftidref',
      'pf.funit as own_unit',
      eb.fn.coalesce('pf.funit', 'd.default_unit').as('unit'),
      'pf.values_json',
    ])
    .where('pf.product_id', 'in', ids)
    .where('pf.occurrence', '=', 1)
    .execute();
}
