import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { DomainError } from '../domain/errors.js';
import { errorStatus } from '../domain/error-codes.js';
import type { RequestContext } from '../domain/context.js';
import { getProductSheet } from '../domain/products/product-sheet.service.js';
import { productPage } from './product.tools.js';

/** Products as resources, for clients that attach resources rather than call tools. */
export const PRODUCT_URI_TEMPLATE = 'pim://product/{id}';
const PRODUCT_URI = /^pim:\/\/product\/([1-9]\d{0,15})$/;
const RESOURCE_PAGE = 100;
const MIME = 'application/json';

export const productResourceTemplate = {
  uriTemplate: PRODUCT_URI_TEMPLATE,
  name: 'product',
  title: 'Product sheet',
  description:
    'One product of the open workspace with its texts, features, group and variants, as JSON (the answer of the tool get_product)',
  mimeType: MIME,
};

/** A domain error as a JSON-RPC error: resources have no isError results. */
function resourceError(error: unknown, uri: string): unknown {
  if (!(error instanceof DomainError)) return error;
  if (error.code === 'NOT_FOUND') return new ResourceNotFoundError(uri);
  const status = errorStatus(error.detailCode);
  return new ProtocolError(
    status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams,
    error.message,
    { code: error.detailCode, status },
  );
}

/** resources/list: one page of products (main products and variants) as resource links. */
export async function listProductResources(ctx: RequestContext, cursor: string | undefined) {
  try {
    const page = await productPage(ctx, { all: true, limit: RESOURCE_PAGE, cursor });
    return {
      resources: page.items.map((p) => ({
        uri: `pim://product/${p.id}`,
        name: p.supplierPid,
        title: p.name || p.supplierPid,
        mimeType: MIME,
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  } catch (error) {
    throw resourceError(error, 'pim://product/');
  }
}

/** resources/read of pim://product/{id}. */
export async function readProductResource(ctx: RequestContext, uri: string) {
  const match = PRODUCT_URI.exec(uri);
  if (!match) throw new ResourceNotFoundError(uri);
  try {
    const sheet = await getProductSheet(ctx, Number(match[1]));
    return { contents: [{ uri, mimeType: MIME, text: JSON.stringify(sheet) }] };
  } catch (error) {
    throw resourceError(error, uri);
  }
}
