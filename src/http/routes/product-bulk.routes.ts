import { Type } from '@sinclair/typebox';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { ValidationError } from '../../domain/errors.js';
import {
  BulkDeleteRequest,
  BulkDeleteResult,
  BulkProductDocument,
  BulkProductResult,
} from '../../domain/products/product-bulk.schemas.js';
import { deleteProducts, upsertProducts } from '../../domain/products/product-bulk.service.js';
import type { PimApp } from '../pim-app.js';
import { parseJsonArray, parseNdjson } from '../bulk-body.js';
import { ok } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { requestContext } from '../request-context.js';
import { Envelope, errorResponses } from '../response.schemas.js';
import { CATALOGUE_EDIT } from '../route-access.js';
import { NoQuery } from '../../domain/common.schemas.js';
import { validatorCompiler } from '../validation.js';
import {
  BULK_DOCUMENTS_MAX,
  BULK_ROWS_MAX,
  BULK_BODY_LIMIT,
  SHEET_ROWS_MAX,
} from '../../domain/products/product-limits.js';

/**
 * The documents of a bulk upsert are validated one by one by the service (a bad document is
 * that document's 400, not the batch's), so the route checks only that the body is an array;
 * the schema stays on the route for the API description.
 */
const documentsUnchecked: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

const BULK_NOTE =
  `Up to ${BULK_DOCUMENTS_MAX} documents and ${BULK_ROWS_MAX} texts and feature values in all (more: 400 ` +
  `BATCH_TOO_LARGE; over ${SHEET_ROWS_MAX} in one document: that document's 400 SHEET_TOO_LARGE), ` +
  'body up to 16 MiB (413 beyond), as a JSON ' +
  'array or as `application/x-ndjson` (one document per line, parsed as it arrives). Additive to the spec.';

export function productBulkRoutes(app: PimApp, deps: HttpDeps): void {
  // Its own scope: the NDJSON parser and the streamed JSON array belong to the bulk upsert only
  // (bulk-delete answers 415 to NDJSON).
  app.register(async (plugin) => {
    const scope = plugin as unknown as PimApp;
    scope.addContentTypeParser('application/x-ndjson', (request: FastifyRequest, payload: IncomingMessage) =>
      parseNdjson(request, payload),
    );
    // A JSON array of up to 16 MiB, parsed an element at a time as it arrives (bulk-body.ts).
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', (request: FastifyRequest, payload: IncomingMessage) =>
      parseJsonArray(parseJson, request, payload),
    );

    scope.post(
      '/api/product/bulk',
      {
        config: CATALOGUE_EDIT,
        bodyLimit: BULK_BODY_LIMIT,
        validatorCompiler: documentsUnchecked,
        schema: {
          operationId: 'upsertProducts',
          tags: ['product'],
          summary: 'Create or update many products by supplierPid (bulk upsert)',
          description:
            'Each document is keyed by supplierPid: a new one is created (201), an existing one updated (200): the ' +
            'fields sent change, the texts and features sent are set (languages and features not sent stay), ' +
            '`groupId` moves it (null: out of its group). `masterSupplierPid` makes a new product a variant of a ' +
            'stored product or of a document of the same batch. The answer is 200 with one result per document, in ' +
            'order; a refused document (its status and error as the single endpoint would answer) changes nothing, ' +
            'and every accepted document commits together. A supplierPid named twice in a batch: the later ' +
            `document is refused. ${BULK_NOTE}`,
          querystring: NoQuery,
          body: {
            content: {
              'application/json': {
                schema: Type.Array(BulkProductDocument, { maxItems: BULK_DOCUMENTS_MAX }),
              },
              'application/x-ndjson': {
                schema: Type.Composite([BulkProductDocument], {
                  title: 'BulkProductDocumentLine',
                  description: `One document per line (at most ${BULK_DOCUMENTS_MAX} lines; blank lines are skipped).`,
                }),
              },
            },
          },
          response: {
            200: Envelope(Type.Array(BulkProductResult)),
            ...errorResponses(400, 401, 403, 409, 413, 415, 500),
          },
        },
      },
      async (request) => {
        const body: unknown = request.body;
        if (!Array.isArray(body))
          throw new ValidationError('Request body must be a JSON array of product documents');
        return ok(await upsertProducts(requestContext(request, deps), body));
      },
    );
  });

  app.post(
    '/api/product/bulk-delete',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'deleteProducts',
        tags: ['product'],
        summary: 'Delete many products by supplierPid or id',
        description:
          `Deletes up to ${BULK_DOCUMENTS_MAX} products named by \`supplierPids\` or by \`ids\` (exactly one of ` +
          'them), in one transaction; a main product takes its variants. One result per entry, in order: 200 when ' +
          'the product is gone (also when an earlier entry took it along as a variant), 404 when there was none. ' +
          'Deletions appear in GET /api/product/deleted. Additive to the spec.',
        querystring: NoQuery,
        body: BulkDeleteRequest,
        response: {
          200: Envelope(Type.Array(BulkDeleteResult)),
          ...errorResponses(400, 401, 403, 409, 413, 415, 500),
        },
      },
    },
    async (request) => ok(await deleteProducts(requestContext(request, deps), request.body)),
  );
}
