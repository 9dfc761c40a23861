import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { RequestContext } from '../../domain/context.js';
import type { Application } from '../../app/application.js';
import { exportBmecat, newExportReport, type ExportReport } from '../../interchange/bmecat/bmecat-export.js';
import { startBmecatExport } from '../../interchange/bmecat/bmecat-export-job.js';
import { exportOptionsOf, ExportOptionsQuery } from '../../interchange/bmecat/export-options.schemas.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import { withApplication } from './with-app.js';

/**
 * `pim export FILE|- [--workspace NAME] [--format 2005|2005.1] [--languages deu,eng] [--group ID] [--strict]`:
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
  const options = parseOptions(values);
  return withApplication(dataDir, async (app) => {
    const ctx = await contextFor(app, workspaceName);
    if (file === '-') {
      const report = newExportReport(options.format);
      for await (const chunk of exportBmecat(ctx, options, report)) {
        if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
      }
      printProblems(report);
      return 0;
    }
    const path = resolve(file);
    if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`cannot write ${path}: its folder does not exist`);
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

function parseOptions(values: CommandInput['values']) {
  const input: Record<string, unknown> = {};
  if (values.format !== undefined) input.format = values.format;
  if (values.languages !== undefined) input.languages = values.languages;
  if (values.group !== undefined) {
    const id = Number(values.group);
    if (!Number.isSafeInteger(id) || id < 1)
      throw new UsageError(`--group is a group's id (a number), not '${String(values.group)}'`);
    input.groupId = id;
  }
  if (values.strict === true) input.strict = true;
  const error = Value.Errors(ExportOptionsQuery, input).First();
  if (error) {
    const option = error.path.replace(/^\//, '').replace('groupId', 'group');
    throw new UsageError(`--${option}: ${error.message} (got '${String(error.value)}')`);
  }
  return exportOptionsOf(input);
}

async function contextFor(app: Application, workspaceName: string | undefined): Promise<RequestContext> {
  const owner = app.ownerContext();
  const workspace = workspaceName
    ? await app.workspaces.workspaceFor(owner, { workspaceName })
    : await app.workspaces.follow();
  if (!workspace)
    throw new UsageError('no workspace is open: open one in pim, or name it with --workspace NAME');
  return { ...owner, workspace };
}

function printProblems(report: ExportReport): void {
  for (const p of report.problems)
    console.error(`pim: ${p.supplierPid === null ? '' : `product ${p.supplierPid} `}${p.message}`);
  if (report.problemCount > report.problems.length)
    console.error(`pim: ... and ${report.problemCount - report.problems.length} more problems`);
}
