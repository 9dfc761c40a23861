import {
  catalogueSql,
  type LockedProductRow,
  type ProductLockPurpose,
  type WorkspaceDb,
} from '../../db/catalogue/catalogue-sql.js';

import { compiledOnce } from '../../db/compiled-once.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';

export type { LockedProductRow, ProductLockPurpose } from '../../db/catalogue/catalogue-sql.js';

/**
 * Locks the products `ids` (those that still exist), the main products of those that are variants
 * (a change to a variant touches its main product) and, with `variants`, the variants of those
 * that are main products (a delete takes them along), all in id order, for the rest of the
 * transaction (db/catalogue/product-lock-sql.ts says why in one order and how per dialect).
 * Returns the locked rows as they are now, the related ones included; an id that is not among
 * them names no product.
 */
export async function lockProducts(
  db: WorkspaceDb,
  ids: readonly number[],
  purpose: ProductLockPurpose,
  options: { variants?: boolean } = {},
): Promise<LockedProductRow[]> {
  if (ids.length === 0) return [];
  const result = await catalogueSql(db)
    .lockProducts(ids, purpose, options.variants ?? false)
    .execute(db);
  return result.rows;
}

const lockOneStatement = compiledOnce<WorkspaceDatabase, LockedProductRow>(
  (db, [id]) => catalogueSql(db).lockProduct(id).compile(db),
  ['\u0000id'],
);

/** lockProducts([id], 'change') of a single product's write, by a statement compiled once. */
export async function lockProductForChange(db: WorkspaceDb, id: number): Promise<LockedProductRow[]> {
  return (await lockOneStatement(db, [id])).rows;
}
