import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { RequestContext } from '../../domain/context.js';
import { getColumnsInUse } from '../../domain/catalogue/catalogue-columns.service.js';
import { getCatalogueVersion } from '../../domain/changes/change-counter.service.js';
import { Turns } from '../../domain/fair-turns.js';
import { readProductColumnsPage } from '../../domain/products/product-columns.service.js';
import { resolveSelection } from '../../domain/products/product-selection.service.js';
import type { ProductSelectionValue } from '../../domain/products/product-selection.schemas.js';
import { CSV_BOM, CsvChunks } from './csv-writer.js';
import { columnName } from './spreadsheet-columns.js';
import { exportColumns } from './spreadsheet-export-columns.js';
import { pageRows, rowLayout } from './spreadsheet-rows.js';
import { XlsxRows, xlsxFile } from './xlsx-writer.js';

/**
 * A view of the catalogue as a spreadsheet, one product a row (docs/spreadsheets.md): the
 * selection resolved and the columns chosen and checked before the first byte (so REST answers a
 * refusal in its envelope), then the products read in pages of ids, only the parts the columns
 * name (readProductColumnsPage: three set-based statements a page), each page written before the
 * next is read, when the consumer asks for more (back-pressure: a slow client holds the reads).
 * Memory holds a page and the selection's ids, whatever the catalogue's size. Each page is read
 * in one snapshot and agrees with itself; a product changed while the export runs shows as its
 * page read it, one deleted meanwhile is left out.
 */

export type SpreadsheetFormat = 'csv' | 'xlsx';

export const SPREADSHEET_MEDIA_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface SpreadsheetExportOptions {
  format: SpreadsheetFormat;
  select: ProductSelectionValue;
  /** Column names (spreadsheet-columns.ts); absent: every field, text and feature in use. */
  columns?: readonly string[];
  /** Only these languages' text and feature columns (ISO 639-2). */
  languages?: readonly string[];
  /** CSV: a UTF-8 byte-order mark first (Excel reads UTF-8 only with it). */
  bom?: boolean;
  /** Called after each page with the products written so far; what it throws ends the export. */
  onProgress?: (products: number, total: number) => void | Promise<void>;
  pageSize?: number;
}

export interface SpreadsheetExportReport {
  format: SpreadsheetFormat;
  /** The catalogue's change counter read before the first product. */
  catalogueCounter: number;
  columns: number;
  /** Products written (those the selection named, less any deleted while the export ran). */
  products: number;
  /** Values a row has no column for: further values of one language in one feature occurrence. */
  valuesLeftOut: number;
}

export interface SpreadsheetExport {
  mediaType: string;
  fileName: string;
  /** The products the selection named. */
  total: number;
  report: SpreadsheetExportReport;
  /** The file's bytes; read once. */
  chunks: AsyncIterable<Buffer>;
}

/**
 * Products a page: 250 rather than 1,000 halved the export's peak RSS (benchmark catalogue, 1,230
 * columns: 371-401 MB to 195-220 MB, and 10-15 % less CPU; 100 measured no better than 250). A
 * page's rows live while its bytes are written, through many young-generation collections; at
 * 1,000 products they are promoted to the old generation, which then grows between full
 * collections (docs/spreadsheets.md, "Memory and speed").
 */
const PAGE_SIZE = 250;
const CHUNK = 65_536;

/** Checks everything, resolves the selection and answers the file to stream (nothing read yet of the products). */
export async function openSpreadsheetExport(
  ctx: RequestContext,
  options: SpreadsheetExportOptions,
): Promise<SpreadsheetExport> {
  const { counter } = await getCatalogueVersion(ctx);
  const columns = exportColumns(
    await getColumnsInUse(ctx, { featureLanguages: options.columns === undefined }),
    options.columns,
    options.languages,
  );
  const ids = await resolveSelection(ctx, options.select);
  const report: SpreadsheetExportReport = {
    format: options.format,
    catalogueCounter: counter,
    columns: columns.length,
    products: 0,
    valuesLeftOut: 0,
  };
  const header = columns.map(columnName);
  const layout = rowLayout(columns);
  const pageSize = options.pageSize ?? PAGE_SIZE;

  // Other requests get turns while the file is made: a client that reads as fast as it is written
  // (a local one) never makes the stream wait, and the export kept the event loop for its whole
  // length (a GET by id waited 3.9 s for a CSV of 100,000 products).
  const turns = new Turns();

  // A page's rows one by one from a synchronous iterable (each row's array is reused: written
  // before the next is taken), a page at a time from the reads.
  async function* pages(): AsyncGenerator<Iterable<readonly (string | null)[]>> {
    yield [header];
    for (let start = 0; start < ids.length; start += pageSize) {
      await turns.take();
      const page = await readProductColumnsPage(ctx, ids.slice(start, start + pageSize), layout.want);
      yield pageRows(page, layout, report);
      report.products += page.products.length;
      await options.onProgress?.(report.products, ids.length);
    }
  }

  async function* csv(): AsyncGenerator<Buffer> {
    if (options.bom === true) yield Buffer.from(CSV_BOM, 'utf8');
    // Chunks of about 64 KB, not a page at a time: large buffers in flight cost more in GC than they save.
    const out = new CsvChunks(CHUNK);
    for await (const page of pages()) {
      for (const row of page) {
        const chunk = out.record(row);
        if (chunk) {
          yield chunk;
          await turns.take();
        }
      }
      const rest = out.flush();
      if (rest) yield rest;
    }
  }

  async function* xlsxRows(): AsyncGenerator<string> {
    const sheet = new XlsxRows(columns.length);
    for await (const page of pages()) {
      let xml = '';
      for (const row of page) {
        xml += sheet.xml(row);
        if (xml.length >= CHUNK) {
          yield xml;
          xml = '';
          await turns.take();
        }
      }
      if (xml.length > 0) yield xml;
    }
  }

  return {
    mediaType: SPREADSHEET_MEDIA_TYPES[options.format],
    fileName: `products.${options.format}`,
    total: ids.length,
    report,
    chunks: options.format === 'csv' ? csv() : xlsxFile(xlsxRows()),
  };
}

/** The export written into `sink` (the window's route, a file): the report once the last byte is written. */
export async function exportSpreadsheet(
  ctx: RequestContext,
  options: SpreadsheetExportOptions,
  sink: Writable,
): Promise<SpreadsheetExportReport> {
  const file = await openSpreadsheetExport(ctx, options);
  await pipeline(Readable.from(file.chunks), sink);
  return file.report;
}
