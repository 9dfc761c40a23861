import { Type } from '@sinclair/typebox';
import type { TextKind } from '../../db/workspace.schema.js';
import { deleteText, getText, listTextsJson, setText } from '../../domain/texts/text.service.js';
import { CATALOGUE_EDIT } from '../route-access.js';
import { VERSIONED_CATALOGUE_READ } from '../conditional.js';
import type { PimApp } from '../pim-app.js';
import { JSON_TYPE, ok, okEmpty, okJson } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { EmptyEnvelope, Envelope, errorResponses } from '../response.schemas.js';
import { IdParams, NoQuery } from '../../domain/common.schemas.js';
import { SetTextRequest, TextEntryDto, TextLangParams } from '../../domain/texts/text.schemas.js';
import { requestContext } from '../request-context.js';

const KINDS: ReadonlyArray<[segment: string, kind: TextKind]> = [
  ['short', 'DESCRIPTIONSHORT'],
  ['long', 'DESCRIPTIONLONG'],
];

const LANG_NOTE =
  '`{lang}` is an ISO 639-2 code, /B or /T form, case-insensitive; it is stored and returned in /T form (ger → deu). ' +
  'Any other value answers 400.';

/** Short (DESCRIPTIONSHORT) and long (DESCRIPTIONLONG) texts: the same four routes for each kind. */
export function textRoutes(app: PimApp, deps: HttpDeps): void {
  for (const [segment, kind] of KINDS) {
    const base = `/api/product/:id/texts/${segment}`;
    const what = `${segment} text (${kind})`;
    const Kind = segment === 'short' ? 'Short' : 'Long';

    app.get(
      base,
      {
        config: VERSIONED_CATALOGUE_READ,
        schema: {
          operationId: `list${Kind}Texts`,
          tags: ['text'],
          summary: `All ${segment} texts of a product`,
          description: `One TextEntryDto per language, ordered by language code. Unknown product: 404.`,
          params: IdParams,
          querystring: NoQuery,
          response: {
            200: Envelope(Type.Array(TextEntryDto)),
            ...errorResponses(400, 401, 403, 404, 409, 500),
          },
        },
      },
      async (request, reply) => {
        // The database writes the JSON (texts/text-json.repository.ts): sent as it comes.
        const json = await listTextsJson(requestContext(request, deps), request.params.id, kind);
        return reply.type(JSON_TYPE).send(okJson(json) as never);
      },
    );

    app.get(
      `${base}/:lang`,
      {
        config: VERSIONED_CATALOGUE_READ,
        schema: {
          operationId: `get${Kind}Text`,
          tags: ['text'],
          summary: `The ${what} of one language`,
          description: `${LANG_NOTE} Unknown product or no text in that language: 404 (TEXT_NOT_FOUND).`,
          params: TextLangParams,
          querystring: NoQuery,
          response: { 200: Envelope(TextEntryDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
        },
      },
      async (request) =>
        ok(await getText(requestContext(request, deps), request.params.id, kind, request.params.lang)),
    );

    app.put(
      `${base}/:lang`,
      {
        config: CATALOGUE_EDIT,
        schema: {
          operationId: `set${Kind}Text`,
          tags: ['text'],
          summary: `Create or replace the ${what} of one language (upsert)`,
          description:
            `${LANG_NOTE} The value is stored exactly as sent (unicode, markup, whitespace), up to 1,000,000 ` +
            "characters (longer: 400). Answers the TextEntryDto. Touches the product's updatedAt.",
          params: TextLangParams,
          querystring: NoQuery,
          body: SetTextRequest,
          response: {
            200: Envelope(TextEntryDto),
            ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
          },
        },
      },
      async (request) =>
        ok(
          await setText(
            requestContext(request, deps),
            request.params.id,
            kind,
            request.params.lang,
            request.body.value,
          ),
        ),
    );

    app.delete(
      `${base}/:lang`,
      {
        config: CATALOGUE_EDIT,
        schema: {
          operationId: `delete${Kind}Text`,
          tags: ['text'],
          summary: `Delete the ${what} of one language`,
          description: `${LANG_NOTE} A missing text answers 404 (TEXT_NOT_FOUND).`,
          params: TextLangParams,
          querystring: NoQuery,
          response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
        },
      },
      async (request) => {
        await deleteText(requestContext(request, deps), request.params.id, kind, request.params.lang);
        return okEmpty();
      },
    );
  }
}
