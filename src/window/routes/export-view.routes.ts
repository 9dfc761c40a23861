import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getColumnsInUse } from '../../domain/catalogue/catalogue-columns.service.js';
import { LanguageCode } from '../../domain/common.schemas.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../../domain/context.js';
import { NotFoundError, ValidationError, atField } from '../../domain/errors.js';
import { ProductSelection } from '../../domain/products/product-selection.schemas.js';
import {
  openSpreadsheetExport,
  type SpreadsheetExportOptions,
} from '../../interchange/spreadsheet/spreadsheet-export.js';
import { ok } from '../../http/envelope.js';
import { primed } from '../../http/primed-stream.js';
import type { ExportViewChoices, ExportViewReady, ExportViewRequest } from '../export-view-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';
import { attachment, exportFileName } from './export.routes.js';

const ExportViewBody = Type.Object(
  {
    format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
    select: ProductSelection,
    columns: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 1_000 }), { minItems: 1, maxItems: 10_000 }),
    ),
    languages: Type.Optional(Type.Array(LanguageCode, { minItems: 1, maxItems: 500 })),
    bom: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type ExportViewBodyValue = Static<typeof ExportViewBody>;

// The contract the front end imports and the schema are one: these fail to compile otherwise.
const _requestMatches: (request: ExportViewRequest) => ExportViewBodyValue = (request) => request;
void _requestMatches;

/** A picked selection of up to 100,000 ids, as the mass edit's body takes it (not the usual 64 KiB). */
const BODY_LIMIT = 1024 * 1024;

/** How long a checked export waits for its download. */
const READY_FOR_MS = 60_000;

interface Prepared {
  userId: number;
  workspaceId: number;
  options: SpreadsheetExportOptions;
  fileName: string;
  until: number;
}

/**
 * File › Export view…: the grid's view (its filters or its selection, its columns) as CSV or XLSX,
 * over the same service as REST's GET /api/export (openSpreadsheetExport). A browser download is a
 * GET that cannot show a refusal and whose URL cannot carry 100,000 picked ids, so the dialog posts
 * the view first: everything is checked then (a refusal is an envelope the dialog shows), and the
 * answer names a one-time download address for this user, which streams the file (checked again,
 * on the catalogue as it is then). Reading rights, as REST.
 */
export function exportViewRoutes(app: FastifyInstance, deps: WindowDeps): void {
  const prepared = new Map<string, Prepared>();
  const forgetExpired = (now: number) => {
    for (const [token, entry] of prepared) if (entry.until <= now) prepared.delete(token);
  };

  app.get('/ui/api/export/view/options', async (request) => {
    const inUse = await getColumnsInUse(windowContext(request, deps));
    const languages = [...inUse.textLanguages];
    for (const feature of inUse.features)
      for (const lang of feature.languages) if (!languages.includes(lang)) languages.push(lang);
    const choices: ExportViewChoices = {
      languages,
      textLanguages: inUse.textLanguages,
      defaultLanguage: inUse.defaultLanguage,
    };
    return ok(choices);
  });

  app.post<{ Body: ExportViewBodyValue }>(
    '/ui/api/export/view',
    { bodyLimit: BODY_LIMIT, schema: { body: ExportViewBody } },
    async (request) => {
      const ctx = windowContext(request, deps);
      const workspace = useWorkspace(ctx, RIGHTS.read).workspace;
      const options = optionsOf(request.body);
      const file = await openSpreadsheetExport(ctx, options);
      const now = Date.now();
      forgetExpired(now);
      const token = randomBytes(18).toString('base64url');
      const fileName = exportFileName(workspace.name, options.format);
      prepared.set(token, {
        userId: ctx.actor.id,
        workspaceId: workspace.id,
        options,
        fileName,
        until: now + READY_FOR_MS,
      });
      const ready: ExportViewReady = {
        url: `/ui/api/export/view/${token}`,
        fileName,
        products: file.total,
      };
      return ok(ready);
    },
  );

  app.get<{ Params: { token: string } }>(
    '/ui/api/export/view/:token',
    { schema: { params: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{24}$' }) }) } },
    async (request, reply) => {
      const ctx = windowContext(request, deps);
      const entry = take(prepared, request.params.token, ctx);
      const file = await openSpreadsheetExport(ctx, entry.options);
      // The first chunk is read before the answer is committed: a refusal is still an envelope.
      const bytes = await primed(file.chunks);
      return reply
        .type(file.mediaType)
        .header('Content-Disposition', attachment(entry.fileName))
        .send(Readable.from(bytes) as never);
    },
  );
}

/** The export's options; `bom` belongs to CSV (400 naming it otherwise, as REST's query). */
function optionsOf(body: ExportViewBodyValue): SpreadsheetExportOptions {
  if (body.format !== 'csv' && body.bom !== undefined)
    throw atField(new ValidationError(`bom applies to format csv only, not ${body.format}`), 'bom');
  return {
    format: body.format,
    select: body.select,
    ...(body.columns !== undefined ? { columns: body.columns } : {}),
    ...(body.languages !== undefined ? { languages: body.languages } : {}),
    ...(body.bom !== undefined ? { bom: body.bom } : {}),
  };
}

/** A prepared export, once: this user's, on the workspace it was checked on, within its minute. */
function take(prepared: Map<string, Prepared>, token: string, ctx: RequestContext): Prepared {
  const entry = prepared.get(token);
  prepared.delete(token);
  const workspace = useWorkspace(ctx, RIGHTS.read).workspace;
  if (!entry || entry.userId !== ctx.actor.id || entry.until <= Date.now())
    throw new NotFoundError('This export has expired or was downloaded already: export the view again');
  if (entry.workspaceId !== workspace.id)
    throw new NotFoundError('Another workspace was opened since: export the view again');
  return entry;
}
