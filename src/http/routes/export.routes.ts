import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { exportBmecat, newExportReport } from '../../interchange/bmecat/bmecat-export.js';
import { ExportQuery, exportRequestOf } from '../../interchange/export-query.schemas.js';
import {
  openSpreadsheetExport,
  SPREADSHEET_MEDIA_TYPES,
} from '../../interchange/spreadsheet/spreadsheet-export.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { primed } from '../primed-stream.js';
import { requestContext } from '../request-context.js';
import { errorResponses } from '../response.schemas.js';
import { CATALOGUE_READ } from '../route-access.js';

/**
 * `GET /api/export`: the open workspace as a BMEcat T_NEW_CATALOG (docs/bmecat.md, "Exporting"),
 * or a view of it as CSV or XLSX (`format=csv|xlsx`, docs/spreadsheets.md), streamed. Not in the
 * spec: pim's addition. A refusal before the first byte (an unknown group
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
        summary: 'Export the open workspace as a BMEcat catalogue, or a view of it as CSV or XLSX (streamed)',
        description:
          'BMEcat (the default format): a T_NEW_CATALOG with the header (the one the catalogue was imported with, else one naming the ' +
          'workspace), the feature definitions, the group system, every product with what pim keeps of it, and ' +
          'the products\u2019 groups. Problems (values over BMEcat\u2019s limits) are not reported here: use ' +
          '`pim export` or MCP\u2019s export_bmecat for the report, or strict=true to refuse them. ' +
          'format=csv or xlsx: one row per product of the selection (ids, or the product grid\u2019s filters; none: ' +
          'every product) in id order, the chosen columns (default: every field, text and feature in use); ' +
          'a cell beginning with =, +, -, @, TAB, CR or \u2019 gets a leading \u2019 in CSV (docs/spreadsheets.md). ' +
          'A parameter the chosen format does not take is refused (400).',
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The catalogue (BMEcat) or the view (CSV, XLSX)',
            content: {
              'application/xml': { schema: Type.String({ description: 'A BMEcat 2005 document' }) },
              'text/csv': {
                schema: Type.String({ description: 'CSV (RFC 4180, UTF-8), a header row first' }),
              },
              [SPREADSHEET_MEDIA_TYPES.xlsx]: {
                schema: Type.String({
                  format: 'binary',
                  description: 'An XLSX workbook, one sheet "products"',
                }),
              },
            },
          },
          ...errorResponses(400, 401, 403, 404, 409, 500),
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request, deps);
      const asked = exportRequestOf(request.query);
      if (asked.kind === 'spreadsheet') {
        const file = await openSpreadsheetExport(ctx, asked.options);
        const bytes = await primed(file.chunks);
        return reply
          .type(file.mediaType)
          .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
          .send(Readable.from(bytes) as never);
      }
      const { options } = asked;
      const chunks = await primed(exportBmecat(ctx, options, newExportReport(options.format)));
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="catalogue.xml"')
        .send(Readable.from(chunks) as never);
    },
  );
}
