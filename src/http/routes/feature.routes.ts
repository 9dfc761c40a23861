import { Type } from '@sinclair/typebox';
import {
  deleteFeature,
  deleteFeatureValue,
  getFeature,
  getFeatureValue,
  listFeaturesJson,
  setFeature,
  setFeatureValue,
} from '../../domain/features/feature.service.js';
import { CATALOGUE_EDIT } from '../route-access.js';
import { VERSIONED_CATALOGUE_READ } from '../conditional.js';
import type { PimApp } from '../pim-app.js';
import { JSON_TYPE, ok, okEmpty, okJson } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { EmptyEnvelope, Envelope, errorResponses } from '../response.schemas.js';
import { IdParams, NoQuery } from '../../domain/common.schemas.js';
import {
  FeatureDto,
  FeatureLangParams,
  FeatureParams,
  SetFeatureValuesRequest,
} from '../../domain/features/feature.schemas.js';
import { SetTextRequest, TextEntryDto } from '../../domain/texts/text.schemas.js';
import { requestContext } from '../request-context.js';

const FTIDREF_NOTE =
  '`{ftidref}` is the FT_IDREF, percent-encoded (any characters: # as %23, / as %2F, space as %20). ' +
  'A product may carry one ftidref several times (ECLASS Advanced does): these routes address its first ' +
  'occurrence; GET /api/product/{id}/sheet shows every occurrence. A product without that feature answers 404 ' +
  '(FEATURE_NOT_FOUND).';
const LANG_NOTE =
  '`{lang}` is an ISO 639-2 code (/B or /T, case-insensitive; ger is stored as deu); others: 400.';

export function featureRoutes(app: PimApp, deps: HttpDeps): void {
  const base = '/api/product/:id/features';

  app.get(
    base,
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listFeatures',
        tags: ['feature'],
        summary: 'All features of a product, all languages',
        description:
          'Ordered as they were added to the product (the first PUT of an ftidref appends it; BMEcat keeps feature ' +
          'order). names come from the feature definition, values are ordered by language. A product may carry ' +
          'one ftidref several times: this list has its first occurrence, the one the single feature routes ' +
          'address; GET /api/product/{id}/sheet has every occurrence with its details.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Envelope(Type.Array(FeatureDto)), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      // The database writes the JSON (feature-json.repository.ts): sent as it comes.
      const json = await listFeaturesJson(requestContext(request, deps), request.params.id);
      return reply.type(JSON_TYPE).send(okJson(json) as never);
    },
  );

  app.get(
    `${base}/:ftidref`,
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'getFeature',
        tags: ['feature'],
        summary: 'One feature, all languages',
        description: FTIDREF_NOTE,
        params: FeatureParams,
        querystring: NoQuery,
        response: { 200: Envelope(FeatureDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) =>
      ok(await getFeature(requestContext(request, deps), request.params.id, request.params.ftidref)),
  );

  app.get(
    `${base}/:ftidref/:lang`,
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'getFeatureValue',
        tags: ['feature'],
        summary: 'The value of one language',
        description:
          `${FTIDREF_NOTE} ${LANG_NOTE} No value in that language: the language-neutral value (lang \`zxx\`: ` +
          'numbers, codes) when the feature has one, answered as `{lang: "zxx", value}`; else 404 (FEATURE_VALUE_NOT_FOUND).',
        params: FeatureLangParams,
        querystring: NoQuery,
        response: { 200: Envelope(TextEntryDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) =>
      ok(
        await getFeatureValue(
          requestContext(request, deps),
          request.params.id,
          request.params.ftidref,
          request.params.lang,
        ),
      ),
  );

  app.put(
    `${base}/:ftidref`,
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'setFeature',
        tags: ['feature'],
        summary: 'Set the values of several languages at once (creates the feature if needed)',
        description:
          '`{ftidref}` is percent-encoded. Upsert per language: the languages named are set, the others keep their ' +
          'values. `funit`, when sent, replaces the unit. An ftidref unknown to the workspace creates its ' +
          'definition with no names. A body ftidref different from the path: 400. `values` missing, not an array, ' +
          'or an entry without lang or value: 400. Answers the FeatureDto.',
        params: FeatureParams,
        querystring: NoQuery,
        body: SetFeatureValuesRequest,
        response: { 200: Envelope(FeatureDto), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request) =>
      ok(
        await setFeature(
          requestContext(request, deps),
          request.params.id,
          request.params.ftidref,
          request.body,
        ),
      ),
  );

  app.put(
    `${base}/:ftidref/:lang`,
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'setFeatureValue',
        tags: ['feature'],
        summary: 'Set the value of one language (creates the feature if needed)',
        description: `\`{ftidref}\` is percent-encoded. ${LANG_NOTE} The value is stored exactly as sent. Answers the TextEntryDto.`,
        params: FeatureLangParams,
        querystring: NoQuery,
        body: SetTextRequest,
        response: { 200: Envelope(TextEntryDto), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500) },
      },
    },
    async (request) =>
      ok(
        await setFeatureValue(
          requestContext(request, deps),
          request.params.id,
          request.params.ftidref,
          request.params.lang,
          request.body.value,
        ),
      ),
  );

  app.delete(
    `${base}/:ftidref`,
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'deleteFeature',
        tags: ['feature'],
        summary: 'Remove the whole feature from the product',
        description: `${FTIDREF_NOTE} The workspace's feature definition stays.`,
        params: FeatureParams,
        querystring: NoQuery,
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => {
      await deleteFeature(requestContext(request, deps), request.params.id, request.params.ftidref);
      return okEmpty();
    },
  );

  app.delete(
    `${base}/:ftidref/:lang`,
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'deleteFeatureValue',
        tags: ['feature'],
        summary: 'Remove the value of one language',
        description:
          `${FTIDREF_NOTE} ${LANG_NOTE} No value in that language: 404 (FEATURE_VALUE_NOT_FOUND). ` +
          'A feature whose last value was deleted stays, with no values, until it is deleted itself.',
        params: FeatureLangParams,
        querystring: NoQuery,
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => {
      await deleteFeatureValue(
        requestContext(request, deps),
        request.params.id,
        request.params.ftidref,
        request.params.lang,
      );
      return okEmpty();
    },
  );
}
