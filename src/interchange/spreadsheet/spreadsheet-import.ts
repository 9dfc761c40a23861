import { RIGHTS, runInTransaction, type RequestContext } from '../../domain/context.js';
import { deleteFeature, deleteFeatureValue } from '../../domain/features/feature.service.js';
import { Turns } from '../../domain/fair-turns.js';
import { listGroups } from '../../domain/groups/group.service.js';
import { upsertProducts } from '../../domain/products/product-bulk.service.js';
import { readProductStates } from '../../domain/products/product-state.service.js';
import { deleteText } from '../../domain/texts/text.service.js';
import { readHeader, type HeaderPlan } from './spreadsheet-header.js';
import { place, SpreadsheetError } from './spreadsheet-error.js';
import { planRow, RowProblem, type RowPlan } from './spreadsheet-row-plan.js';
import { detached, type SheetRow } from './sheet-row.js';
import type { SpreadsheetFormat } from './spreadsheet-export.js';

/**
 * A spreadsheet (CSV or XLSX: one product a row, the columns of spreadsheet-columns.ts) into the
 * open workspace, keyed by supplierPid, in one transaction like a BMEcat import: a bad cell fails
 * the import with its row and column and nothing is written, unless continueOnError skips its row.
 * Each batch of rows is compared with the stored products (one lean read) and only what differs
 * is written, so an unchanged product is not touched (docs/spreadsheets.md, "Importing").
 */
export interface SpreadsheetImportOptions {
  format: SpreadsheetFormat;
  dryRun?: boolean;
  continueOnError?: boolean;
  /** Called after each batch with the rows done; a rejection ends the import, rolled back (a job's cancel). */
  onProgress?: (processed: number) => void | Promise<void>;
}

export interface SpreadsheetProblem {
  row: number;
  column: number;
  /** The column's header name, when the header names it. */
  columnName: string | null;
  supplierPid: string | null;
  message: string;
  code?: string;
}

export interface SpreadsheetImportReport {
  format: SpreadsheetFormat;
  dryRun: boolean;
  /** Product rows read (the header and empty rows not counted). */
  rows: number;
  created: number;
  changed: number;
  unchanged: number;
  /** Rows skipped with continueOnError (the first SKIPPED_LISTED; skippedCount counts all). */
  skipped: SpreadsheetProblem[];
  skippedCount: number;
}

const ROWS_PER_BATCH = 500;
/** Texts and feature values a batch may write (the bulk upsert takes up to 100,000). */
const CELLS_PER_BATCH = 50_000;
const SKIPPED_LISTED = 1_000;

class DryRunDone extends Error {
  constructor(readonly report: SpreadsheetImportReport) {
    super('dry run');
  }
}

export async function importSpreadsheet(
  context: RequestContext,
  rows: AsyncIterable<SheetRow>,
  options: SpreadsheetImportOptions,
): Promise<SpreadsheetImportReport> {
  try {
    return await runInTransaction(context, RIGHTS.edit, async (ctx) => {
      const report = await importInto(ctx, rows, options);
      if (options.dryRun) throw new DryRunDone(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    throw error;
  }
}

interface Pending {
  row: number;
  cells: string[];
}

async function importInto(
  ctx: RequestContext,
  rows: AsyncIterable<SheetRow>,
  options: SpreadsheetImportOptions,
): Promise<SpreadsheetImportReport> {
  const report: SpreadsheetImportReport = {
    format: options.format,
    dryRun: options.dryRun === true,
    rows: 0,
    created: 0,
    changed: 0,
    unchanged: 0,
    skipped: [],
    skippedCount: 0,
  };
  let header: HeaderPlan | undefined;
  const groups = new Set((await listGroups(ctx)).map((g) => g.id));
  // Every key of the file so far: a second row with one is refused (memory: the keys only).
  const keys = new Set<string>();
  let batch: Pending[] = [];
  let cells = 0;
  const skip = (problem: Omit<SpreadsheetProblem, 'columnName'>) =>
    skipOrFail(problem, header!, report, options);

  const flush = async () => {
    if (batch.length === 0) return;
    await writeBatch(ctx, header!, batch, groups, report, skip);
    batch = [];
    cells = 0;
    await options.onProgress?.(report.rows);
  };

  const turns = new Turns();
  for await (const sheetRow of rows) {
    // Reading, comparing and the transaction's statements all resolve at once while the file's
    // bytes are at hand: without a turn now and then, no other request (a read of the catalogue,
    // the job's progress) would be answered until the import ends (as bmecat-import.ts does).
    await turns.take();
    if (!header) {
      header = readHeader(sheetRow, options.format);
      continue;
    }
    report.rows++;
    const width = header.names.length;
    const supplierPid = keyOf(header, sheetRow.cells);
    if (sheetRow.problem) {
      skip({
        row: sheetRow.row,
        column: sheetRow.problem.column,
        supplierPid: null,
        message: sheetRow.problem.message,
      });
      continue;
    }
    const extra = extraCell(sheetRow.cells, width, options.format);
    if (extra >= 0 || (options.format === 'csv' && sheetRow.cells.length < width)) {
      skip({
        row: sheetRow.row,
        column: extra >= 0 ? extra + 1 : sheetRow.cells.length + 1,
        supplierPid,
        message: `the row has ${sheetRow.cells.length} cells; the header row has ${width}`,
      });
      continue;
    }
    if (supplierPid !== null && supplierPid !== '') {
      if (keys.has(supplierPid)) {
        skip({
          row: sheetRow.row,
          column: header.supplierPid + 1,
          supplierPid,
          message: `supplierPid '${supplierPid}' is the key of an earlier row of the file`,
        });
        continue;
      }
      keys.add(detached(supplierPid));
    }
    batch.push({ row: sheetRow.row, cells: sheetRow.cells });
    cells += width;
    if (batch.length >= ROWS_PER_BATCH || cells >= CELLS_PER_BATCH) await flush();
  }
  if (!header) throw new SpreadsheetError('The file is empty: it has no header row', 1, 1);
  await flush();
  // Found as they came: while reading (a duplicate), comparing (a bad cell) or writing (refused).
  report.skipped.sort((a, b) => a.row - b.row);
  return report;
}

async function writeBatch(
  ctx: RequestContext,
  header: HeaderPlan,
  batch: readonly Pending[],
  groups: ReadonlySet<number>,
  report: SpreadsheetImportReport,
  skip: (problem: Omit<SpreadsheetProblem, 'columnName'>) => void,
): Promise<void> {
  const stored = await readProductStates(
    ctx,
    batch.map((p) => keyOf(header, p.cells) ?? '').filter((pid) => pid !== ''),
    header.compared,
  );
  const plans: { row: number; plan: Exclude<RowPlan, { kind: 'unchanged' }> }[] = [];
  for (const { row, cells } of batch) {
    const supplierPid = keyOf(header, cells);
    try {
      const plan = planRow(header, cells, supplierPid ? stored.get(supplierPid) : undefined, groups);
      if (plan.kind === 'unchanged') report.unchanged++;
      else plans.push({ row, plan });
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      skip({ row, column: error.column, supplierPid, message: error.message });
    }
  }
  const writes = plans.filter((p) => p.plan.document !== undefined);
  const refused = new Set<number>();
  if (writes.length > 0) {
    const results = await upsertProducts(
      ctx,
      writes.map((p) => p.plan.document),
    );
    results.forEach((result, i) => {
      if (result.status === 200 || result.status === 201) return;
      const { row, plan } = writes[i]!;
      refused.add(row);
      skip({
        row,
        column: header.supplierPid + 1,
        supplierPid: plan.supplierPid,
        message: result.error ?? 'refused',
        ...(result.code ? { code: result.code } : {}),
      });
    });
  }
  for (const { row, plan } of plans) {
    if (refused.has(row)) continue;
    if (plan.kind === 'create') report.created++;
    else {
      report.changed++;
      const id = stored.get(plan.supplierPid)!.id;
      for (const [kind, lang] of plan.removals.texts) await deleteText(ctx, id, kind, lang);
      for (const [ftidref, lang] of plan.removals.featureValues)
        await deleteFeatureValue(ctx, id, ftidref, lang);
      for (const ftidref of plan.removals.features) await deleteFeature(ctx, id, ftidref);
    }
  }
}

/**
 * The first cell past the header's width that makes a row too long (-1: none): any in CSV, a
 * filled one in XLSX (an XLSX row may hold empty cells past its last). Looked at from the width
 * on, not over every cell: an exported file's rows have 1,230.
 */
function extraCell(cells: readonly string[], width: number, format: SpreadsheetFormat): number {
  for (let i = width; i < cells.length; i++) if (format === 'csv' || cells[i] !== '') return i;
  return -1;
}

/** A row's supplierPid as written (the formula guard undone); null without the cell. */
function keyOf(header: HeaderPlan, cells: readonly string[]): string | null {
  const cell = cells[header.supplierPid];
  return cell === undefined ? null : header.valueOf(cell);
}

/** A bad row: the import fails (nothing written), or with continueOnError the row is skipped and reported. */
function skipOrFail(
  problem: Omit<SpreadsheetProblem, 'columnName'>,
  header: HeaderPlan,
  report: SpreadsheetImportReport,
  options: SpreadsheetImportOptions,
): void {
  const columnName = header.names[problem.column - 1] ?? null;
  if (!options.continueOnError) {
    const where = place(problem.row, problem.column, columnName ?? undefined);
    const message = `${where}: ${problem.message}`;
    throw new SpreadsheetError(
      problem.supplierPid ? `${message} (supplierPid '${problem.supplierPid}')` : message,
      problem.row,
      problem.column,
    );
  }
  report.skippedCount++;
  if (report.skipped.length < SKIPPED_LISTED)
    report.skipped.push({
      ...problem,
      supplierPid: problem.supplierPid === null ? null : detached(problem.supplierPid),
      message: detached(problem.message),
      columnName,
    });
}
