import { Type } from '@sinclair/typebox';
import { BulkProductDocument, BulkProductResult } from '../domain/products/product-bulk.schemas.js';
import { upsertProducts } from '../domain/products/product-bulk.service.js';
import { RIGHTS } from '../domain/users/roles.js';
import { defineTool } from './tool.js';
import { BULK_DOCUMENTS_MAX, BULK_ROWS_MAX } from '../domain/products/product-limits.js';

export const bulkTools = [
  defineTool({
    name: 'upsert_products',
    title: 'Create or update many products',
    description:
      `Creates or updates up to ${BULK_DOCUMENTS_MAX} products keyed by supplierPid, as POST /api/product/bulk: ` +
      'a new supplierPid is created (status 201), an existing one updated (200: the fields sent change, the texts ' +
      'and features sent are set, the rest stays; groupId moves it, null takes it out of its group). ' +
      'masterSupplierPid makes a new product a variant of a stored product or of another product in the same ' +
      'call. Returns one result per product, in order ({supplierPid, id, status, error?, code?}): a refused ' +
      'product changes nothing and the others are stored. Use it instead of many create_product calls. At most ' +
      `${BULK_ROWS_MAX} texts and feature values in all per call.`,
    input: Type.Object(
      {
        // An empty list answers an empty list, as REST's empty batch does.
        products: Type.Array(BulkProductDocument, {
          maxItems: BULK_DOCUMENTS_MAX,
          description: 'The products, each keyed by supplierPid; a supplierPid at most once per call',
        }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ results: Type.Array(BulkProductResult) }, { additionalProperties: false }),
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: async (ctx, { products }) => ({ results: await upsertProducts(ctx, products) }),
  }),
];
