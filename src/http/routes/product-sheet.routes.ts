import { IdParams } from '../../domain/common.schemas.js';
import { getProductVersion } from '../../domain/products/product.service.js';
import { LangQuery } from '../../domain/products/product.schemas.js';
import { ProductSheetDto } from '../../domain/products/product-sheet.schemas.js';
import { getProductSheetJson } from '../../domain/products/product-sheet.service.js';
import { replaceProductSheet } from '../../domain/products/product-sheet-replace.service.js';
import { ProductSheetWriteRequest } from '../../domain/products/product-sheet-write.schemas.js';
import { productNotFound } from '../../domain/products/product.guards.js';
import type { PimApp } from '../pim-app.js';
import { answeredNotModified, expectedRevision, productEtag } from '../conditional.js';
import { JSON_TYPE, ok, okJson } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { requestContext } from '../request-context.js';
import { Envelope, errorResponses } from '../response.schemas.js';
import { CATALOGUE_EDIT, CATALOGUE_READ } from '../route-access.js';

const SHEET_NOTE =
  'The product sheet: the product with its texts, every feature occurrence (one ftidref several times ' +
  'included, with values of several or no language and their details), its groups, manufacturer name, ' +
  'keywords, media and the content kept verbatim, and its variants (docs/products.md, "The product sheet"). ' +
  "Its ETag is the product's (GET /api/product/{id}): If-None-Match answers 304, and PUT takes it as If-Match.";

/** GET and PUT /api/product/{id}/sheet: the whole product in one call and one transaction. */
export function productSheetRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/product/:id/sheet',
    {
      config: { ...CATALOGUE_READ, etag: 'product' },
      schema: {
        operationId: 'getProductSheet',
        tags: ['product'],
        summary: 'Read a whole product sheet',
        description: SHEET_NOTE,
        params: IdParams,
        querystring: LangQuery,
        response: { 200: Envelope(ProductSheetDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const id = request.params.id;
      // The version first: a change between the two reads then makes the ETag older than the sheet
      // (a later If-Match is refused, safely), never newer.
      const version = await getProductVersion(ctx, id);
      if (!version) throw productNotFound(id);
      if (await answeredNotModified(request, reply, async () => productEtag(version))) return reply;
      const json = await getProductSheetJson(ctx, id);
      return reply
        .header('ETag', productEtag(version))
        .type(JSON_TYPE)
        .send(okJson(json) as never);
    },
  );

  app.put(
    '/api/product/:id/sheet',
    {
      config: { ...CATALOGUE_EDIT, ifMatch: true },
      schema: {
        operationId: 'replaceProductSheet',
        tags: ['product'],
        summary: 'Replace a whole product sheet',
        description:
          `${SHEET_NOTE} The body is a sheet as GET answers it; its read-only parts (ids, names, counts, ` +
          'timestamps, the variants) are ignored, every other part replaces the stored one: texts of languages ' +
          'not listed are deleted, features, groups, keywords, media and fragments become the lists sent. One ' +
          'transaction: any error changes nothing. If-Match (optional): the ETag of the product or its sheet; ' +
          'a product changed since answers 412 PRECONDITION_FAILED.',
        params: IdParams,
        querystring: LangQuery,
        body: ProductSheetWriteRequest,
        response: {
          200: Envelope(ProductSheetDto),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const expected = expectedRevision(request, ctx.workspace?.id, request.params.id);
      const { sheet, version } = await replaceProductSheet(ctx, request.params.id, request.body, expected);
      reply.header('ETag', productEtag(version));
      return ok(sheet);
    },
  );
}
