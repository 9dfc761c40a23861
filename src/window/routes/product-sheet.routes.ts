import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParams, Nullable } from '../../domain/common.schemas.js';
import type { RequestContext } from '../../domain/context.js';
import { atField, DomainError, ValidationError } from '../../domain/errors.js';
import { normalizeLanguage } from '../../domain/languages/language.js';
import { deleteProduct, type ProductVersion } from '../../domain/products/product.service.js';
import { LangQuery } from '../../domain/products/product.schemas.js';
import {
  CreateProductSheetRequest,
  type CreateProductSheetInput,
  type ProductSheet,
} from '../../domain/products/product-sheet.schemas.js';
import {
  createVersionedProductSheet,
  getVersionedProductSheet,
} from '../../domain/products/product-sheet.service.js';
import { replaceProductSheet } from '../../domain/products/product-sheet-replace.service.js';
import { ProductSheetWriteRequest } from '../../domain/products/product-sheet-write.schemas.js';
import { BODY_LIMIT } from '../../http/app.js';
import { expectedRevisionOf, productEtag } from '../../http/conditional.js';
import { ok } from '../../http/envelope.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';

/**
 * The product editor's endpoints: one read and one write of the whole product sheet (the MCP
 * tools' services), under the revision the editor loaded, and create, create a variant, delete.
 * The revision is the product's ETag as REST answers it (`W/"w1-p42-r17-deu"`): opaque to the
 * window, it names the workspace too, so a sheet of another workspace never passes for this one.
 */

const SaveSheetRequest = Type.Object(
  {
    revision: Nullable(
      Type.String({
        maxLength: 200,
        description: 'The revision the sheet was read with; null overwrites whatever is stored now',
      }),
    ),
    sheet: ProductSheetWriteRequest,
  },
  { additionalProperties: false },
);

const CreateVariantSheetRequest = Type.Omit(CreateProductSheetRequest, ['masterProductId'], {
  additionalProperties: false,
});

type WithId = { Params: { id: number } };
type LangQueryValue = { lang?: string };

/** A long text may hold 1,000,000 characters: the sheet's writes take REST's body limit, not the window's. */
const SHEET_WRITE = { bodyLimit: BODY_LIMIT };

function sheetContext(request: FastifyRequest<{ Querystring: LangQueryValue }>, deps: WindowDeps) {
  const { lang } = request.query;
  const ctx: RequestContext = windowContext(request, deps);
  return lang === undefined ? ctx : { ...ctx, language: normalizeLanguage(lang, 'lang') };
}

function answer(result: { sheet: ProductSheet; version: ProductVersion }) {
  return ok({ sheet: result.sheet, revision: productEtag(result.version) });
}

/** The condition of a save: null overwrites; otherwise the revision as the read answered it. */
function expected(revision: string | null, ctx: RequestContext, id: number) {
  if (revision === null) return undefined;
  try {
    return expectedRevisionOf(revision, ctx.workspace?.id, id);
  } catch {
    const error = new ValidationError(
      'revision must be the revision the product sheet was read with, or null',
      'INVALID_PRECONDITION',
    );
    throw atField(error, 'revision');
  }
}

/** Refusals of the sheet name its inputs as the body has them: under `sheet`. */
function inBody(prefix: string) {
  return (error: unknown): never => {
    if (error instanceof DomainError && error.field !== undefined) error.field = `${prefix}.${error.field}`;
    throw error;
  };
}

export function productSheetRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get<WithId & { Querystring: LangQueryValue }>(
    '/ui/api/products/:id/sheet',
    { schema: { params: IdParams, querystring: LangQuery } },
    async (request) => answer(await getVersionedProductSheet(sheetContext(request, deps), request.params.id)),
  );

  app.put<WithId & { Querystring: LangQueryValue; Body: Static<typeof SaveSheetRequest> }>(
    '/ui/api/products/:id/sheet',
    { schema: { params: IdParams, querystring: LangQuery, body: SaveSheetRequest }, ...SHEET_WRITE },
    async (request) => {
      const ctx = sheetContext(request, deps);
      const { id } = request.params;
      const condition = expected(request.body.revision, ctx, id);
      return answer(await replaceProductSheet(ctx, id, request.body.sheet, condition).catch(inBody('sheet')));
    },
  );

  app.post<{ Querystring: LangQueryValue; Body: CreateProductSheetInput }>(
    '/ui/api/products',
    { schema: { querystring: LangQuery, body: CreateProductSheetRequest }, ...SHEET_WRITE },
    async (request, reply) =>
      reply
        .code(201)
        .send(answer(await createVersionedProductSheet(sheetContext(request, deps), request.body))),
  );

  app.post<WithId & { Querystring: LangQueryValue; Body: Omit<CreateProductSheetInput, 'masterProductId'> }>(
    '/ui/api/products/:id/variants',
    { schema: { params: IdParams, querystring: LangQuery, body: CreateVariantSheetRequest }, ...SHEET_WRITE },
    async (request, reply) => {
      const input = { ...request.body, masterProductId: request.params.id };
      return reply
        .code(201)
        .send(answer(await createVersionedProductSheet(sheetContext(request, deps), input)));
    },
  );

  app.delete<WithId>('/ui/api/products/:id', { schema: { params: IdParams } }, async (request) =>
    ok({ deleted: await deleteProduct(windowContext(request, deps), request.params.id) }),
  );
}
