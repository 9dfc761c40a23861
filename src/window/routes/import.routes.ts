import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { receiveUpload } from '../../http/upload-file.js';
import { Type, type Static } from '@sinclair/typebox';
import { errorCodes, type FastifyInstance, type FastifyRequest, type FastifySchemaCompiler } from 'fastify';
import { RIGHTS, useWorkspace } from '../../domain/context.js';
import type { JobDtoValue } from '../../domain/jobs/job.schemas.js';
import type { ImportReport } from '../../interchange/bmecat/bmecat-import.js';
import { startBmecatImport } from '../../interchange/bmecat/bmecat-import-job.js';
import { importOptionFields } from '../../interchange/bmecat/import-options.schemas.js';
import { startSpreadsheetImport } from '../../interchange/spreadsheet/spreadsheet-import-job.js';
import type { SpreadsheetImportReport } from '../../interchange/spreadsheet/spreadsheet-import.js';
import {
  SPREADSHEET_MEDIA_TYPES,
  spreadsheetFormatOfMediaType,
} from '../../interchange/spreadsheet/spreadsheet-media-types.js';
import { ok } from '../../http/envelope.js';
import { IMPORT_BODY_LIMIT } from '../../http/routes/import.routes.js';
import { validatorCompiler } from '../../http/validation.js';
import type { ImportReportView, SpreadsheetImportReportView, WindowJob } from '../job-api.types.js';
import { countReads, type FileRead } from '../upload-reads.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import { windowContext } from '../window-context.js';

// The contract the front end imports and the domain's shapes are one: these fail to compile otherwise.
const _jobMatches: (job: JobDtoValue) => WindowJob = (job) => job;
const _reportMatches: (report: ImportReport) => ImportReportView = (report) => report;
const _sheetMatches: (report: SpreadsheetImportReport) => SpreadsheetImportReportView = (report) => report;
void [_jobMatches, _reportMatches, _sheetMatches];

const MEDIA_TYPES = ['application/xml', 'text/xml', ...SPREADSHEET_MEDIA_TYPES];

const ImportQuery = Type.Object(
  {
    ...importOptionFields,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false },
);

// The body is a stream, read by the handler: only the query string is validated.
const queryOnly: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route);

/**
 * What is refused before a byte of the body is read (a VIEWER must not be able to fill the disk):
 * no workspace (409), no right to edit (403), another media type (415), a declared size over 2 GiB (413).
 */
function refuseEarly(request: FastifyRequest, deps: WindowDeps): void {
  useWorkspace(windowContext(request, deps), RIGHTS.edit);
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (!MEDIA_TYPES.includes(type)) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type);
  spreadsheetFormatOfMediaType(request.headers['content-type'], (request.query as { mode?: string }).mode);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > IMPORT_BODY_LIMIT)
    throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
}

/**
 * File › Import…: the file as the body (application/xml or text/xml for BMEcat, text/csv or the XLSX
 * type for a spreadsheet, up to 2 GiB), streamed
 * to a temporary file and imported as a job, as REST's POST /api/import does (202 with the job).
 * The window follows the job through its `job` events, and reads or cancels it under /ui/api/jobs.
 */
export function importRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(MEDIA_TYPES, (_request, payload, done) => done(null, payload));
    scope.post<{ Querystring: Static<typeof ImportQuery> }>(
      '/ui/api/import',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        validatorCompiler: queryOnly,
        schema: {
          querystring: ImportQuery,
          // Names the media types a 415 lists; the body itself is not validated (queryOnly).
          body: { content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: {} }])) },
        },
        onRequest: async (request) => refuseEarly(request, deps),
      },
      async (request, reply) => {
        const ctx = windowContext(request, deps);
        if (!(request.body instanceof Readable)) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
        const { dir, path } = await receiveUpload(request.body, IMPORT_BODY_LIMIT, 'pim-window-import-');
        let started;
        const file: FileRead = { size: 0, read: 0 };
        try {
          file.size = (await stat(path)).size;
          const query = request.query;
          const format = spreadsheetFormatOfMediaType(request.headers['content-type'], query.mode);
          started = format
            ? await startSpreadsheetImport(deps.jobs, ctx, {
                path,
                name: query.name ?? `upload.${format}`,
                format,
                dryRun: query.dryRun === true,
                continueOnError: query.continueOnError === true,
                removeAfter: true,
                watch: (bytes) => countReads(bytes, file),
              })
            : await startBmecatImport(deps.jobs, ctx, {
                path,
                name: query.name ?? 'upload.xml',
                mode: query.mode ?? 'merge',
                dryRun: query.dryRun === true,
                continueOnError: query.continueOnError === true,
                removeAfter: true,
                watch: (bytes) => countReads(bytes, file),
              });
        } catch (error) {
          await rm(dir, { recursive: true, force: true });
          throw error;
        }
        const { job, done } = started;
        events.reads.track(job.id, file);
        void done.finally(() => {
          events.reads.forget(job.id);
          return rm(dir, { recursive: true, force: true });
        });
        return reply.code(202).send(ok(events.reads.withRead(job)));
      },
    );
  });
}
