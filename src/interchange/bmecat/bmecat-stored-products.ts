import type { RequestContext } from '../../domain/context.js';
import { getProductSheet, type ProductSheet } from '../../domain/products/product-sheet.service.js';
import { listProducts } from '../../domain/products/product.service.js';

/**
 * The stored sheet of the product with this SUPPLIER_PID (inside the import's transaction, so a
 * product the same file created is found), or undefined. For the parts of an update file that
 * change a stored product partly: its prices (T_UPDATE_PRICES).
 */
export async function storedSheet(
  ctx: RequestContext,
  supplierPid: string,
): Promise<ProductSheet | undefined> {
  const [product] = await listProducts(ctx, { all: true, supplierPid });
  return product === undefined ? undefined : getProductSheet(ctx, product.id);
}
