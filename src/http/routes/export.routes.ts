import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { NoQuery } from '../../domain/common.schemas.js';
import { getCatalogIdentity, setCatalogIdentity } from '../../domain/catalogue/catalog-identity.service.js';
import { CatalogIdentity, CatalogIdentityChange } from '../../domain/catalogue/catalog-identity.schemas.js';
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
import { Envelope, errorResponses } from '../response.schemas.js';
import { ok } from '../envelope.js';
import { CATALOGUE_EDIT, CATALOGUE_READ } from '../route-access.js';

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

  // The HEADER's ids and names every BMEcat export of the workspace writes (docs/bmecat.md): the
  // window's File › Export BMEcat… and `pim workspace header` set them too.
  app.get(
    '/api/export/header',
    {
      config: CATALOGUE_READ,
      schema: {
        operationId: 'getCatalogHeader',
        tags: ['job'],
        summary: 'The catalogue ids and names a BMEcat export writes in its HEADER',
        description:
          'CATALOG_ID, CATALOG_VERSION, CATALOG_NAME, SUPPLIER_NAME, SUPPLIER_ID and its type, set for the open ' +
          'workspace; null where none is set (the export then keeps what an imported file\u2019s HEADER said, ' +
          'else names the workspace).',
        querystring: NoQuery,
        response: { 200: Envelope(CatalogIdentity), ...errorResponses(400, 401, 403, 409, 500) },
      },
    },
    async (request) => ok(await getCatalogIdentity(requestContext(request, deps))),
  );
  app.put(
    '/api/export/header',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'setCatalogHeader',
        tags: ['job'],
        summary: 'Set the catalogue ids and names a BMEcat export writes in its HEADER',
        description:
          'The fields sent are set (null clears one), the others stay; an unknown field, a value over ' +
          'BMEcat 2005.1\u2019s limit or in the wrong form is refused (400) and nothing changes. Returns all fields.',
        querystring: NoQuery,
        body: CatalogIdentityChange,
        response: { 200: Envelope(CatalogIdentity), ...errorResponses(400, 401, 403, 409, 413, 415, 500) },
      },
    },
    async (request) => ok(await setCatalogIdentity(requestContext(request, deps), request.body)),
  );
}
