import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { receiveUpload } from '../upload-file.js';
import { Type, type Static } from '@sinclair/typebox';
import { errorCodes, type FastifyReply, type FastifySchemaCompiler } from 'fastify';
import { JobDto } from '../../domain/jobs/job.schemas.js';
import { startBmecatImport } from '../../interchange/bmecat/bmecat-import-job.js';
import { importOptionFields } from '../../interchange/bmecat/import-options.schemas.js';
import { startSpreadsheetImport } from '../../interchange/spreadsheet/spreadsheet-import-job.js';
import {
  SPREADSHEET_MEDIA_TYPES,
  spreadsheetFormatOfMediaType,
} from '../../interchange/spreadsheet/spreadsheet-media-types.js';
import { ok } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { requestContext } from '../request-context.js';
import { Envelope, errorResponses, HEADERS } from '../response.schemas.js';
import { CATALOGUE_EDIT } from '../route-access.js';
import { validatorCompiler } from '../validation.js';

/** The largest BMEcat file `POST /api/import` takes (streamed to disk, never held in memory). */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024 * 1024;

const ImportQuery = Type.Object(
  {
    ...importOptionFields,
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: "The file's name, as the job shows it" }),
    ),
  },
  { additionalProperties: false },
);

// The body is a stream, read by the handler: only the query string is validated.
const queryOnly: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

/**
 * `POST /api/import`: a BMEcat file as the body, streamed to a file of its own, imported as a job
 * (202 with the job, Location: /api/job/{id}). Not in the spec: pim's addition (docs/bmecat.md).
 */
export function importRoutes(app: PimApp, deps: HttpDeps): void {
  app.register(async (plugin) => {
    const scope = plugin as unknown as PimApp;
    scope.addContentTypeParser(
      ['application/xml', 'text/xml', ...SPREADSHEET_MEDIA_TYPES],
      (_request, payload, done) => done(null, payload),
    );
    scope.post(
      '/api/import',
      {
        config: CATALOGUE_EDIT,
        bodyLimit: IMPORT_BODY_LIMIT,
        validatorCompiler: queryOnly,
        schema: {
          operationId: 'importBmecat',
          tags: ['job'],
          summary: 'Import a BMEcat catalogue or a spreadsheet (CSV, XLSX) into the open workspace, as a job',
          description:
            'The body is the file (application/xml or text/xml, up to 2 GiB), streamed to disk. Answers 202 with ' +
            'the job and Location: /api/job/{id}; follow it there. The import is one transaction: a refused file ' +
            'or product fails the job with the line and column and writes nothing (unless continueOnError). ' +
            'BMEcat 2005 and 1.2, T_NEW_CATALOG (merge or replace), T_UPDATE_PRODUCTS and T_UPDATE_PRICES. ' +
            'text/csv (UTF-8; a charset other than utf-8 is refused) and the XLSX type import a spreadsheet, one ' +
            'product a row keyed by supplierPid (the columns of GET /api/export?format=csv): only what differs is ' +
            'written; a bad cell fails the job with its row (line) and column; mode does not apply.',
          querystring: ImportQuery,
          body: {
            content: {
              'application/xml': { schema: Type.String({ description: 'A BMEcat file' }) },
              'text/xml': { schema: Type.String({ description: 'A BMEcat file' }) },
              'text/csv': {
                schema: Type.String({
                  description: 'A spreadsheet as CSV (RFC 4180, UTF-8; , or ; between cells)',
                }),
              },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: Type.String({
                  format: 'binary',
                  description: 'A spreadsheet as XLSX (its first worksheet)',
                }),
              },
            },
          },
          response: {
            202: Type.Object(Envelope(JobDto).properties, {
              additionalProperties: false,
              description: 'Accepted: the job in data, its path in Location',
              headers: { Location: HEADERS.Location },
            }),
            ...errorResponses(400, 401, 403, 409, 413, 415, 500),
          },
        },
      },
      async (request, reply: FastifyReply) => {
        const ctx = requestContext(request, deps);
        const query = request.query as Static<typeof ImportQuery>;
        // Another media type was parsed by its own parser (JSON): not a file to import.
        if (!(request.body instanceof Readable)) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > IMPORT_BODY_LIMIT)
          throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
        const format = spreadsheetFormatOfMediaType(request.headers['content-type'], query.mode);
        const { dir, path } = await receiveUpload(request.body, IMPORT_BODY_LIMIT, 'pim-import-');
        const { job, done } = format
          ? await startSpreadsheetImport(deps.jobs, ctx, {
              path,
              name: query.name ?? `upload.${format}`,
              format,
              dryRun: query.dryRun === true,
              continueOnError: query.continueOnError === true,
              removeAfter: true,
            })
          : await startBmecatImport(deps.jobs, ctx, {
              path,
              name: query.name ?? 'upload.xml',
              mode: query.mode ?? 'merge',
              dryRun: query.dryRun === true,
              continueOnError: query.continueOnError === true,
              removeAfter: true,
            });
        void done.finally(() => rm(dir, { recursive: true, force: true }));
        return reply.code(202).header('Location', `/api/job/${job.id}`).send(ok(job));
      },
    );
  });
}
