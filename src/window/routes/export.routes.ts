import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { getCatalogueOutline } from '../../domain/catalogue/catalogue-export.service.js';
import { getCatalogIdentity, setCatalogIdentity } from '../../domain/catalogue/catalog-identity.service.js';
import { CatalogIdentityChange } from '../../domain/catalogue/catalog-identity.schemas.js';
import { RIGHTS, useWorkspace } from '../../domain/context.js';
import { checkExportOptions, exportBmecat, newExportReport } from '../../interchange/bmecat/bmecat-export.js';
import {
  exportOptionsOf,
  ExportOptionsQuery,
  type ExportOptionsInput,
} from '../../interchange/bmecat/export-options.schemas.js';
import { ok } from '../../http/envelope.js';
import { primed } from '../../http/primed-stream.js';
import type { ExportCheck, ExportChoices } from '../job-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';

/**
 * File › Export BMEcat…: what the dialog offers, a check of the chosen options (the browser's
 * download cannot show an error in the envelope, so the dialog asks first), and the download
 * itself, streamed as REST's GET /api/export streams it. Reading rights, as REST.
 */
export function exportRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get('/ui/api/export/options', async (request) => {
    const outline = await getCatalogueOutline(windowContext(request, deps));
    const choices: ExportChoices = { languages: outline.languages, defaultLanguage: outline.defaultLanguage };
    return ok(choices);
  });

  // The HEADER's ids and names (reading as the export; changing them needs the edit right, which
  // the service checks).
  app.get('/ui/api/export/header', async (request) =>
    ok(await getCatalogIdentity(windowContext(request, deps))),
  );
  app.put<{ Body: CatalogIdentityChange }>(
    '/ui/api/export/header',
    { schema: { body: CatalogIdentityChange } },
    async (request) => ok(await setCatalogIdentity(windowContext(request, deps), request.body)),
  );

  app.get<{ Querystring: ExportOptionsInput }>(
    '/ui/api/export/check',
    { schema: { querystring: ExportOptionsQuery } },
    async (request) => {
      const ctx = windowContext(request, deps);
      const workspace = useWorkspace(ctx, RIGHTS.read).workspace;
      await checkExportOptions(ctx, exportOptionsOf(request.query));
      const answer: ExportCheck = { fileName: exportFileName(workspace.name) };
      return ok(answer);
    },
  );

  app.get<{ Querystring: ExportOptionsInput }>(
    '/ui/api/export',
    { schema: { querystring: ExportOptionsQuery } },
    async (request, reply) => {
      const ctx = windowContext(request, deps);
      const workspace = useWorkspace(ctx, RIGHTS.read).workspace;
      const options = exportOptionsOf(request.query);
      // The first chunk is read before the answer is committed: a refusal is still an envelope.
      const chunks = await primed(exportBmecat(ctx, options, newExportReport(options.format)));
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', attachment(exportFileName(workspace.name)))
        .send(Readable.from(chunks) as never);
    },
  );
}

/** The download's name: the workspace's, as a file name on any system. */
export function exportFileName(workspace: string, extension = 'xml'): string {
  const base = workspace.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_').trim() || 'catalogue';
  return `${base}.${extension}`;
}

/** Content-Disposition with an ASCII name for old clients and the exact one (RFC 6266, RFC 8187). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * as they are; RFC 8187's value-chars exclude them.
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
