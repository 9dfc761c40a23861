import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { productNotFound } from './product.guards.js';
import { nameLanguage } from './product.service.js';
import type { ProductVersion } from './product.types.js';

/** A product's ProductDto as JSON text, with the version it shows. */
export interface ProductJson {
  json: string;
  version: ProductVersion;
}

/**
 * One product as ProductDto JSON text, for adapters that send it as is (GET /api/product/{id}):
 * written by the database in the statement that reads the revision (no row object, DTO or
 * serialiser per request). It equals the DTO of getVersionedProduct (test/http/products-stream.test.ts).
 */
export async function getProductJson(context: RequestContext, id: number): Promise<ProductJson> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const language = nameLanguage(ctx);
  const row = await ctx.reads.productJson(id, language);
  if (!row) throw productNotFound(id);
  return {
    json: row[1],
    version: { workspaceId: ctx.workspace.id, productId: id, revision: row[0], language },
  };
}
