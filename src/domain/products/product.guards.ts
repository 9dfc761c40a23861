import { NotFoundError } from '../errors.js';
import {
  lockProductForChange,
  lockProducts,
  type LockedProductRow,
  type ProductLockPurpose,
} from './product-lock.repository.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { findProductCore } from './product.repository.js';

/** The existence check the product, text and feature services start with. */

export function productNotFound(id: number): NotFoundError {
  return new NotFoundError(`Product ${id} not found`, 'PRODUCT_NOT_FOUND');
}

/** Throws PRODUCT_NOT_FOUND unless the product exists; returns whether it is a variant. */
export async function requireProduct(
  db: WorkspaceDb,
  id: number,
): Promise<{ id: number; master_id: number | null }> {
  const core = await findProductCore(db, id);
  if (!core) throw productNotFound(id);
  return core;
}

/**
 * requireProduct for a write: locks the product for the rest of the transaction (with its main
 * product, and for a delete its variants: product-lock.repository.ts) and returns it as it is now.
 * Throws PRODUCT_NOT_FOUND when there is none, also when a delete committed while the lock waited,
 * where reading without the lock let the write go on and fail on a key (500).
 */
export async function lockProduct(
  db: WorkspaceDb,
  id: number,
  purpose: ProductLockPurpose = 'change',
): Promise<LockedProductRow> {
  const rows =
    purpose === 'change'
      ? await lockProductForChange(db, id)
      : await lockProducts(db, [id], purpose, { variants: true });
  const product = rows.find((row) => row.id === id);
  if (!product) throw productNotFound(id);
  return product;
}

/**
 * lockProduct for a delete: the product and, locked with it, the variants that go with it
 * (none for a variant), so that the count a delete answers is the count it deleted.
 */
export async function lockProductForDelete(
  db: WorkspaceDb,
  id: number,
): Promise<{ product: LockedProductRow; variants: number }> {
  const rows = await lockProducts(db, [id], 'delete', { variants: true });
  const product = rows.find((row) => row.id === id);
  if (!product) throw productNotFound(id);
  return { product, variants: rows.filter((row) => row.master_id === id).length };
}
