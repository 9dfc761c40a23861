import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { exportBmecat, newExportReport, type ExportReport } from '../../interchange/bmecat/bmecat-export.js';
import { startBmecatExport } from '../../interchange/bmecat/bmecat-export-job.js';
import { ExportQuery, exportRequestOf } from '../../interchange/export-query.schemas.js';
import { openSpreadsheetExport } from '../../interchange/spreadsheet/spreadsheet-export.js';
import { startSpreadsheetExport } from '../../interchange/spreadsheet/spreadsheet-export-job.js';
import type { SpreadsheetExportReport } from '../../interchange/spreadsheet/spreadsheet-export.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import { withApplication, workspaceContext } from './with-app.js';

/**
 * `pim export FILE|- [--workspace NAME] [--format 2005|2005.1|csv|xlsx] [--languages deu,eng] [--group ID] [--strict]
 * [--columns ...] [--q ...] [--bom] ...`: a file ending in .csv or .xlsx is a spreadsheet (docs/spreadsheets.md).
 * the open workspace (or the one named) as a BMEcat T_NEW_CATALOG (docs/bmecat.md). Into a file as
 * a job (the file appears only whole); `-` streams to standard output. Problems (values over
 * BMEcat's limits, ...) go to standard error; --strict makes the first one fail the export.
 */
export async function exportCommand({ dataDir, positionals, values, out }: CommandInput): Promise<number> {
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('pim export needs a file to write, or - for standard output');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const workspaceName = values.workspace as string | undefined;
  if (workspaceName !== undefined && workspaceName.trim() === '')
    throw new UsageError('--workspace needs a workspace name; it is empty');
  const asked = parseOptions(values, file);
  if (asked.kind === 'spreadsheet') {
    const { options } = asked;
    return withApplication(dataDir, async (app) => {
      const ctx = await workspaceContext(app, workspaceName);
      if (file === '-') {
        const exported = await openSpreadsheetExport(ctx, options);
        for await (const chunk of exported.chunks) {
          if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
        }
        return 0;
      }
      const path = writablePath(file);
      const { job, done } = await startSpreadsheetExport(app.jobs, ctx, { path, options, replace: true });
      const ended = await done;
      if (ended.state !== 'succeeded') {
        console.error(`pim: ${ended.error?.message ?? `the export was ${ended.state}`}`);
        console.error(`pim: no file was written (job ${job.id})`);
        return 1;
      }
      const report = ended.report as SpreadsheetExportReport;
      out(
        `exported workspace ${ctx.workspace!.name} to ${file} (${report.format.toUpperCase()}): ` +
          `${report.products} products, ${report.columns} columns` +
          (report.valuesLeftOut > 0
            ? `, ${report.valuesLeftOut} further values of a language in one feature left out`
            : ''),
      );
      return 0;
    });
  }
  const { options } = asked;
  return withApplication(dataDir, async (app) => {
    const ctx = await workspaceContext(app, workspaceName);
    if (file === '-') {
      const report = newExportReport(options.format);
      for await (const chunk of exportBmecat(ctx, options, report)) {
        if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
      }
      printProblems(report);
      return 0;
    }
    const path = writablePath(file);
    const { job, done } = await startBmecatExport(app.jobs, ctx, { path, options, replace: true });
    const ended = await done;
    if (ended.state !== 'succeeded') {
      console.error(`pim: ${ended.error?.message ?? `the export was ${ended.state}`}`);
      console.error(`pim: no file was written (job ${job.id})`);
      return 1;
    }
    const report = ended.report as ExportReport;
    printProblems(report);
    out(
      `exported workspace ${ctx.workspace!.name} to ${file} (BMEcat ${report.format}): ${report.products} products ` +
        `(${report.variants} variants), ${report.groups} groups` +
        (report.problemCount > 0 ? `, ${report.problemCount} problems (standard error)` : ''),
    );
    return 0;
  });
}

function writablePath(file: string): string {
  const path = resolve(file);
  if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`cannot write ${path}: its folder does not exist`);
  return path;
}

/** The command line's options as GET /api/export's query names them: one schema checks both. */
const OPTION_NAMES: Record<string, string> = {
  group: 'groupId',
  'include-subgroups': 'includeSubgroups',
  'main-only': 'mainOnly',
  'include-variants': 'includeVariants',
};
const QUERY_NAMES = Object.fromEntries(Object.entries(OPTION_NAMES).map(([option, name]) => [name, option]));

function parseOptions(values: CommandInput['values'], file: string) {
  const input: Record<string, unknown> = {};
  for (const [option, value] of Object.entries(values)) {
    if (option === 'workspace' || option === 'data-dir' || option === 'help' || value === undefined) continue;
    input[OPTION_NAMES[option] ?? option] = value;
  }
  if (values.group !== undefined) {
    const id = Number(values.group);
    if (!Number.isSafeInteger(id) || id < 1)
      throw new UsageError(`--group is a group's id (a number), not '${String(values.group)}'`);
    input.groupId = id;
  }
  // The format follows the file's extension unless --format names one.
  const extension = /\.(csv|xlsx)$/i.exec(file)?.[1]?.toLowerCase();
  if (input.format === undefined && extension !== undefined) input.format = extension;
  const error = Value.Errors(ExportQuery, input).First();
  if (error) {
    const name = error.path.replace(/^\//, '');
    throw new UsageError(`--${QUERY_NAMES[name] ?? name}: ${error.message} (got '${String(error.value)}')`);
  }
  try {
    return exportRequestOf(input);
  } catch (caught) {
    // A parameter the format does not take: said with the option's name.
    const field = (caught as { field?: string }).field;
    if (field === undefined || !(caught instanceof Error)) throw caught;
    throw new UsageError(`--${QUERY_NAMES[field] ?? field}: ${caught.message}`);
  }
}

function printProblems(report: ExportReport): void {
  for (const p of report.problems)
    console.error(`pim: ${p.supplierPid === null ? '' : `product ${p.supplierPid} `}${p.message}`);
  if (report.problemCount > report.problems.length)
    console.error(`pim: ... and ${report.problemCount - report.problems.length} more problems`);
}
