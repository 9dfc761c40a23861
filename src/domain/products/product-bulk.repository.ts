import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';

export interface ProductKeyRow {
  id: number;
  supplier_pid: string;
  master_id: number | null;
}

export async function findBySupplierPid(db: WorkspaceDb, pid: string): Promise<ProductKeyRow | undefined> {
  return db
    .selectFrom('product')
    .select(['id', 'supplier_pid', 'master_id'])
    .where('supplier_pid', '=', pid)
    .executeTakeFirst();
}

export async function findByIds(db: WorkspaceDb, ids: readonly number[]): Promise<ProductKeyRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('product')
    .select(['id', 'supplier_pid', 'master_id'])
    .where('id', 'in', ids)
    .execute();
}

export async function findVariantIds(db: WorkspaceDb, masterId: number): Promise<number[]> {
  const rows = await db.selectFrom('product').select('id').where('master_id', '=', masterId).execute();
  return rows.map((row) => row.id);
}
