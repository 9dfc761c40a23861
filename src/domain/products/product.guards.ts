import { NotFoundError } from '../errors.js';
import { findProductCore, type WorkspaceDb } from './product.repository.js';

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
