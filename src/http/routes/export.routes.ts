import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { exportBmecat, newExportReport } from '../../interchange/bmecat/bmecat-export.js';
import { exportOptionsOf, ExportOptionsQuery } from '../../interchange/bmecat/export-options.schemas.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { primed } from '../primed-stream.js';
import { requestContext } from '../request-context.js';
import { errorResponses } from '../response.schemas.js';
import { CATALOGUE_READ } from '../route-access.js';

/**
 * `GET /api/export`: the open workspace as a BMEcat T_NEW_CATALOG, streamed (docs/bmecat.md,
 * "Exporting"). Not in the spec: pim's addition. A refusal before the first byte (an unknown group
 * or language, no workspace) is answered in the envelope; a failure later (with `strict`, a value
 * BMEcat cannot take) can only cut the transfer short, so the file is then incomplete.
 */
export function exportRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/export',
    {
      config: CATALOGUE_READ,
      schema: {
        operationId: 'exportBmecat',
        tags: ['job'],
        summary: 'Export the open workspace as a BMEcat catalogue (application/xml, streamed)',
        description:
          'A T_NEW_CATALOG with the header (the one the catalogue was imported with, else one naming the ' +
          'workspace), the feature definitions, the group system, every product with what pim keeps of it, and ' +
          'the products\u2019 groups. Problems (values over BMEcat\u2019s limits) are not reported here: use ' +
          '`pim export` or MCP\u2019s export_bmecat for the report, or strict=true to refuse them.',
        querystring: ExportOptionsQuery,
        response: {
          200: {
            description: 'The catalogue',
            content: {
              'application/xml': { schema: Type.String({ description: 'A BMEcat 2005 document' }) },
            },
          },
          ...errorResponses(400, 401, 403, 404, 409, 500),
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const options = exportOptionsOf(request.query);
      const chunks = await primed(exportBmecat(ctx, options, newExportReport(options.format)));
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="catalogue.xml"')
        .send(Readable.from(chunks) as never);
    },
  );
}
