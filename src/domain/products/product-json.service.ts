import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { findProductJsonPrepared } from './product.repository.js';
import { productNotFound } from './product.guards.js';
import { getVersionedProduct, nameLanguage } from './product.service.js';
import type { ProductVersion } from './product.types.js';

/** A product's ProductDto as JSON text, with the version it shows. */
export interface ProductJson {
  json: string;
  version: ProductVersion;
}

/**
 * One product as ProductDto JSON text, for adapters that send it as is (GET /api/product/{id}):
 * on SQLite outside a caller's transaction, written by the database in the statement that reads
 * the revision (no row object, DTO or serialiser per request); elsewhere the DTO of
 * getVersionedProduct, serialised. Both give the same DTO (test/http/products-stream.test.ts).
 */
export async function getProductJson(context: RequestContext, id: number): Promise<ProductJson> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const reader = ctx.workspace.reader;
  if (ctx.trx || !reader) {
    const { product, version } = await getVersionedProduct(ctx, id);
    return { json: JSON.stringify(product), version };
  }
  const language = nameLanguage(ctx);
  const row = findProductJsonPrepared(ctx.db, reader, id, language);
  if (!row) throw productNotFound(id);
  return {
    json: row[1],
    version: { workspaceId: ctx.workspace.id, productId: id, revision: row[0], language },
  };
}
