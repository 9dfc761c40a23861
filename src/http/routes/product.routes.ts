import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  createVersionedProduct,
  createVersionedVariant,
  deleteProduct,
  getProductVersion,
  listProductsPageJson,
  listVariantsJson,
  streamProductsJson,
  updateVersionedProduct,
  type VersionedProduct,
} from '../../domain/products/product.service.js';
import { CATALOGUE_EDIT, CATALOGUE_READ } from '../route-access.js';
import {
  VERSIONED_CATALOGUE_READ,
  answeredNotModified,
  expectedRevision,
  productEtag,
} from '../conditional.js';
import type { PimApp } from '../pim-app.js';
import { JSON_TYPE, ok, okEmpty, okJson, okJsonArrayBytes, streamArrayEnvelope } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { Created, EmptyEnvelope, Envelope, PagedList, errorResponses } from '../response.schemas.js';
import { IdParams } from '../../domain/common.schemas.js';
import { getProductJson } from '../../domain/products/product-json.service.js';
import { listDeletedProducts } from '../../domain/products/product-deletion.service.js';
import {
  CreateProductRequest,
  DeletedProductDto,
  DeletedProductsQuery,
  CreateVariantRequest,
  LangQuery,
  ProductDto,
  ProductListQuery,
  UpdateProductRequest,
} from '../../domain/products/product.schemas.js';
import { requestContext } from '../request-context.js';
import { primed } from '../primed-stream.js';

const NAME_NOTE =
  'ProductDto.name is the short text in the language of the request (`language` on create/update, `?lang=` on reads), ' +
  'else in the workspace default language; where that is missing, the first short text by language code; else "". ' +
  'Optional fields that were never set are null.';

const PAGING_NOTE =
  'Without parameters the answer is the whole list, ordered by id. Paging and filters are additive: `limit` ' +
  '(1..1000) returns one page and, when more follow, the next page\'s URL in `Link: <...>; rel="next"` ' +
  '(an opaque keyset cursor `after`: every product appears exactly once across pages, also while products are ' +
  'created or deleted between pages; new products appear on later pages). `updatedSince` (ISO 8601, inclusive) ' +
  'selects products changed at or after an instant, for delta sync: pass the `changedAt` that GET /api/workspace answered before the previous sync (stamps follow the commit order). `supplierPid` and `ean` match exactly, `q` ' +
  'searches supplierPid and the short texts of all languages (case-insensitive for ASCII letters). Filters combine ' +
  'with AND. Deleted products do not appear in delta lists: GET /api/product/deleted?since= lists them.';

const ETAG_NOTE =
  "The ETag (weak) names the product's revision and the language of `name`: it changes with every change of the " +
  'product, its texts, features, group membership and variants, and never without one. If-None-Match with it ' +
  'answers 304 with no body while it is current.';

const IF_MATCH_NOTE =
  'If-Match (optional): the ETag of a GET /api/product/{id} (any language), or *; the change is made only while ' +
  'the product is at that version, else 412 PRECONDITION_FAILED and nothing changes (after 400 and 404). Two ' +
  'editors sending the same ETag: the first wins, the second gets 412. A malformed If-Match: 400 INVALID_PRECONDITION.';

/** Sets `Link: <url>; rel="next"` for the next page: the request's own URL with the new cursor. */
export function setNextLink(request: FastifyRequest, reply: FastifyReply, next: string | undefined): void {
  if (next === undefined) return;
  const [path, query = ''] = request.url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('after', next);
  reply.header('Link', `<${path}?${params.toString()}>; rel="next"`);
}

/** 201 for a new product or variant: where it is, and the ETag a later If-Match can name. */
function sendCreated(reply: FastifyReply, { product, version }: VersionedProduct) {
  return reply
    .code(201)
    .header('Location', `/api/product/${product.id}`)
    .header('ETag', productEtag(version))
    .send(ok(product));
}

export function productRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/product',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listProducts',
        tags: ['product'],
        summary: 'List products (main products only unless all=true)',
        description: `${PAGING_NOTE} ${NAME_NOTE}`,
        querystring: ProductListQuery,
        response: { 200: PagedList(ProductDto), ...errorResponses(400, 401, 403, 409, 500) },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      if (request.query.limit === undefined) {
        // The whole list is streamed: first byte at once, memory bounded by one chunk.
        const chunks = await primed(streamProductsJson(ctx, request.query));
        const body = Readable.from(streamArrayEnvelope(chunks));
        // A stream is sent as is: the response schema types the serialised body, not a stream.
        return reply.type(JSON_TYPE).send(body as never);
      }
      const page = await listProductsPageJson(ctx, { ...request.query, limit: request.query.limit });
      setNextLink(request, reply, page.next);
      return reply.type(JSON_TYPE).send(okJsonArrayBytes(page.json) as never);
    },
  );

  app.get(
    '/api/product/deleted',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listDeletedProducts',
        tags: ['product'],
        summary: 'Products deleted since an instant (delta sync)',
        description:
          'Ids and supplierPids of the products (variants included) deleted at or after `since`, oldest first: ' +
          'what a sync that reads `GET /api/product?all=true&updatedSince=…` removes on its side. Deletions are ' +
          'kept 30 days; an older `since` answers 400 DELETIONS_EXPIRED (sync in full instead). Additive to the spec.',
        querystring: DeletedProductsQuery,
        response: {
          200: Envelope(Type.Array(DeletedProductDto)),
          ...errorResponses(400, 401, 403, 409, 500),
        },
      },
    },
    async (request) => ok(await listDeletedProducts(requestContext(request, deps), request.query.since)),
  );

  app.post(
    '/api/product',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'createProduct',
        tags: ['product'],
        summary: 'Create a product (or a variant, with masterProductId)',
        description:
          'Answers 201 with a Location header. supplierPid is required (1 to 128 characters) and unique: a taken ' +
          'one answers 409, also when two requests race. `name` is stored as the short text in `language` ' +
          '(default: the workspace default language). masterProductId of an unknown product: 404; of a variant: 400. ' +
          NAME_NOTE,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: CreateProductRequest,
        response: {
          201: Created(ProductDto, { etag: true }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request, reply) => {
      const created = await createVersionedProduct(requestContext(request, deps), request.body);
      return sendCreated(reply, created);
    },
  );

  app.get(
    '/api/product/:id',
    {
      config: { ...CATALOGUE_READ, etag: 'product' },
      schema: {
        operationId: 'getProduct',
        tags: ['product'],
        summary: 'Read one product',
        description: `${NAME_NOTE} ${ETAG_NOTE}`,
        params: IdParams,
        querystring: LangQuery,
        response: { 200: Envelope(ProductDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const id = request.params.id;
      // A matching If-None-Match costs one lookup by primary key; the product is never built.
      const current = async () => {
        const version = await getProductVersion(ctx, id);
        return version && productEtag(version);
      };
      if (await answeredNotModified(request, reply, current)) return reply;
      // The database writes the JSON (product-json.service.ts): sent as it comes.
      const { json, version } = await getProductJson(ctx, id);
      return reply
        .header('ETag', productEtag(version))
        .type(JSON_TYPE)
        .send(okJson(json) as never);
    },
  );

  app.put(
    '/api/product/:id',
    {
      config: { ...CATALOGUE_EDIT, ifMatch: true },
      schema: {
        operationId: 'updateProduct',
        tags: ['product'],
        summary: 'Update a product (partial: only the fields sent change)',
        description:
          'masterProductId is not accepted (400). A supplierPid taken by another product answers 409. ' +
          'Optional fields can be cleared with null. ' +
          `${NAME_NOTE} ${IF_MATCH_NOTE}`,
        params: IdParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: UpdateProductRequest,
        response: { 200: Envelope(ProductDto), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const expected = expectedRevision(request, ctx.workspace?.id, request.params.id);
      const { product, version } = await updateVersionedProduct(
        ctx,
        request.params.id,
        request.body,
        expected,
      );
      reply.header('ETag', productEtag(version));
      return ok(product);
    },
  );

  app.delete(
    '/api/product/:id',
    {
      config: { ...CATALOGUE_EDIT, ifMatch: true },
      schema: {
        operationId: 'deleteProduct',
        tags: ['product'],
        summary: 'Delete a product',
        description:
          'Deleting a main product deletes its variants, and with them their texts, features and group membership. ' +
          IF_MATCH_NOTE,
        params: IdParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => {
      const ctx = requestContext(request, deps);
      await deleteProduct(
        ctx,
        request.params.id,
        expectedRevision(request, ctx.workspace?.id, request.params.id),
      );
      return okEmpty();
    },
  );

  app.get(
    '/api/product/:id/variants',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listVariants',
        tags: ['product'],
        summary: 'List the variants of a product',
        description: `Ordered by id; a variant has none (empty array). ${NAME_NOTE}`,
        params: IdParams,
        querystring: LangQuery,
        response: { 200: Envelope(Type.Array(ProductDto)), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      // The database writes the JSON (products/variants-json.repository.ts): sent as it comes.
      const json = await listVariantsJson(requestContext(request, deps), request.params.id);
      return reply.type(JSON_TYPE).send(okJson(json) as never);
    },
  );

  app.post(
    '/api/product/:id/variants',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'createVariant',
        tags: ['product'],
        summary: 'Create a variant of a main product',
        description:
          'Answers 201 with a Location header. masterProductId in the body: 400 (the main product is the one in ' +
          'the path). Under a variant: 400 (variants of variants are refused). Unknown product: 404. ' +
          NAME_NOTE,
        params: IdParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        body: CreateVariantRequest,
        response: {
          201: Created(ProductDto, { etag: true }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request, reply) => {
      const created = await createVersionedVariant(
        requestContext(request, deps),
        request.params.id,
        request.body,
      );
      return sendCreated(reply, created);
    },
  );
}
