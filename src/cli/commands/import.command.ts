import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ImportReport } from '../../interchange/bmecat/bmecat-import.js';
import { startBmecatImport } from '../../interchange/bmecat/bmecat-import-job.js';
import type { SpreadsheetImportReport } from '../../interchange/spreadsheet/spreadsheet-import.js';
import {
  spreadsheetFormatOf,
  startSpreadsheetImport,
} from '../../interchange/spreadsheet/spreadsheet-import-job.js';
import type { SpreadsheetFormat } from '../../interchange/spreadsheet/spreadsheet-export.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import type { JobService } from '../../domain/jobs/job.service.js';
import { withApplication, workspaceContext, type CommandContext } from './with-app.js';

/**
 * `pim import FILE [--workspace NAME] [--format bmecat|csv|xlsx] [--mode merge|replace] [--dry-run] [--continue-on-error]`:
 * a BMEcat file or a spreadsheet (FILE.csv, FILE.xlsx, or --format) into the open workspace (or
 * the one named), in one transaction (docs/bmecat.md, docs/spreadsheets.md). On a terminal a
 * progress bar on standard error (by the bytes read), elsewhere a line per 10 % read.
 * Exit 0 when the import was written (skipped products are listed), 1 when nothing was written.
 */
export async function importCommand({ dataDir, positionals, values, out }: CommandInput): Promise<number> {
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('pim import needs a BMEcat file');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const format = (values.format as string | undefined) ?? spreadsheetFormatOf(file) ?? 'bmecat';
  if (format !== 'bmecat' && format !== 'csv' && format !== 'xlsx')
    throw new UsageError(`--format is bmecat, csv or xlsx, not '${format}'`);
  if (format !== 'bmecat' && values.mode !== undefined)
    throw new UsageError(
      '--mode applies to BMEcat; a spreadsheet import creates and updates the products of its rows',
    );
  const mode = (values.mode as string | undefined) ?? 'merge';
  if (mode !== 'merge' && mode !== 'replace')
    throw new UsageError(`--mode is merge or replace, not '${mode}'`);
  const workspaceName = values.workspace as string | undefined;
  if (workspaceName !== undefined && workspaceName.trim() === '')
    throw new UsageError('--workspace needs a workspace name; it is empty');
  const path = resolve(file);
  const size = fileSize(path);
  const dryRun = values['dry-run'] === true;
  return withApplication(dataDir, async (app) => {
    const ctx = await workspaceContext(app, workspaceName);
    if (format !== 'bmecat')
      return importSheet(app.jobs, ctx, { file, path, format, dryRun, size, values, out });
    const progress = new Progress(size);
    const { job, done } = await startBmecatImport(app.jobs, ctx, {
      path,
      name: basename(path),
      mode,
      dryRun,
      continueOnError: values['continue-on-error'] === true,
      watch: (bytes) => progress.count(bytes),
    });
    const ended = await done;
    progress.end();
    if (ended.state === 'cancelled') {
      console.error(`pim: job ${job.id} was cancelled: nothing was imported`);
      return 1;
    }
    if (ended.state !== 'succeeded') {
      const where = ended.error?.line ? `${file}:${ended.error.line}:${ended.error.column}: ` : '';
      console.error(`pim: ${where}${ended.error?.message ?? 'the import failed'}`);
      console.error(`pim: nothing was imported (job ${job.id})`);
      return 1;
    }
    const report = ended.report as ImportReport;
    for (const skip of report.skipped) {
      console.error(
        `pim: ${file}:${skip.line}:${skip.column}: skipped ${skip.supplierPid ?? '(no SUPPLIER_PID)'}: ${skip.message}`,
      );
    }
    const counts =
      `${report.products} products (${report.created} created, ${report.updated} updated, ` +
      `${report.deleted} deleted${report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : ''}), ` +
      `${report.groupsCreated} groups created${report.groupsDeleted > 0 ? `, ${report.groupsDeleted} deleted` : ''}`;
    out(
      dryRun
        ? `dry run of ${file} (${report.transaction}), nothing written: would import ${counts}`
        : `imported ${file} (${report.transaction}) into workspace ${ctx.workspace.name}: ${counts}`,
    );
    return 0;
  });
}

interface SheetInput {
  file: string;
  path: string;
  format: SpreadsheetFormat;
  dryRun: boolean;
  size: number;
  values: CommandInput['values'];
  out: CommandInput['out'];
}

/** A spreadsheet's import: the same job, report lines with the row and column of each skipped row. */
async function importSheet(jobs: JobService, ctx: CommandContext, input: SheetInput): Promise<number> {
  const { file, path, format, dryRun, size, values, out } = input;
  const progress = new Progress(size);
  const { job, done } = await startSpreadsheetImport(jobs, ctx, {
    path,
    name: basename(path),
    format,
    dryRun,
    continueOnError: values['continue-on-error'] === true,
    watch: (bytes) => progress.count(bytes),
  });
  const ended = await done;
  progress.end();
  if (ended.state !== 'succeeded') {
    const where = ended.error?.line ? `${file}:${ended.error.line}:${ended.error.column}: ` : '';
    console.error(`pim: ${where}${ended.error?.message ?? `the import was ${ended.state}`}`);
    console.error(`pim: nothing was imported (job ${job.id})`);
    return 1;
  }
  const report = ended.report as SpreadsheetImportReport;
  for (const skip of report.skipped)
    console.error(`pim: ${file}:${skip.row}:${skip.column}: skipped row ${skip.row}: ${skip.message}`);
  const counts =
    `${report.rows} rows (${report.created} created, ${report.changed} changed, ${report.unchanged} unchanged` +
    `${report.skippedCount > 0 ? `, ${report.skippedCount} skipped` : ''})`;
  out(
    dryRun
      ? `dry run of ${file} (${format}), nothing written: would import ${counts}`
      : `imported ${file} (${format}) into workspace ${ctx.workspace.name}: ${counts}`,
  );
  return 0;
}

function fileSize(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`${path} is not a file`);
    return stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** How much of the file was read: a bar on a terminal, a line per tenth elsewhere (standard error). */
class Progress {
  private read = 0;
  private shown = -1;
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly size: number) {}

  async *count(stream: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream) {
      this.read += chunk.length;
      this.show();
      yield chunk;
    }
  }

  private show(): void {
    const percent = this.size === 0 ? 100 : Math.floor((this.read / this.size) * 100);
    if (this.tty) {
      if (percent === this.shown) return;
      const width = 30;
      const filled = Math.round((percent / 100) * width);
      process.stderr.write(`\rreading ${'#'.repeat(filled)}${'.'.repeat(width - filled)} ${percent} %`);
    } else {
      if (Math.floor(percent / 10) === Math.floor(this.shown / 10)) return;
      process.stderr.write(`read ${percent} %\n`);
    }
    this.shown = percent;
  }

  end(): void {
    if (this.tty && this.shown >= 0) process.stderr.write('\n');
  }
}
