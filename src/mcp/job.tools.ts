import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import { Type } from '@sinclair/typebox';
import { IdParams } from '../domain/common.schemas.js';
import { ConflictError, ValidationError } from '../domain/errors.js';
import { JobDto } from '../domain/jobs/job.schemas.js';
import { RIGHTS } from '../domain/users/roles.js';
import { startBmecatImport } from '../interchange/bmecat/bmecat-import-job.js';
import { importOptionFields } from '../interchange/bmecat/import-options.schemas.js';
import { startBmecatExport } from '../interchange/bmecat/bmecat-export-job.js';
import { exportOptionFields, exportOptionsOf } from '../interchange/bmecat/export-options.schemas.js';
import {
  spreadsheetFormatOf,
  startSpreadsheetImport,
} from '../interchange/spreadsheet/spreadsheet-import-job.js';
import { startSpreadsheetExport } from '../interchange/spreadsheet/spreadsheet-export-job.js';
import {
  spreadsheetOnlyFields,
  spreadsheetOptionsOf,
} from '../interchange/spreadsheet/spreadsheet-export.schemas.js';
import { defineTool } from './tool.js';

const ImportBmecatInput = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        'An absolute path of a BMEcat file on the machine pim runs on (pim reads it; it is not sent)',
    }),
    ...importOptionFields,
  },
  { additionalProperties: false },
);

const ImportSpreadsheetInput = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        'An absolute path of a CSV or XLSX file on the machine pim runs on (pim reads it; it is not sent)',
    }),
    format: Type.Optional(
      Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], {
        description: 'csv or xlsx; default: from the file name (.csv, .xlsx)',
      }),
    ),
    dryRun: importOptionFields.dryRun,
    continueOnError: Type.Optional(
      Type.Boolean({ description: 'Skip a bad row, list it (row, column) in the report, import the others' }),
    ),
  },
  { additionalProperties: false },
);

const ExportBmecatInput = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        'An absolute path on the machine pim runs on where the file is written; it must not exist yet',
    }),
    ...exportOptionFields,
  },
  { additionalProperties: false },
);

/** GET /api/export's spreadsheet parameters (the same schema), with the file to write. */
const ExportSpreadsheetInput = Type.Object(
  {
    path: ExportBmecatInput.properties.path,
    format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], {
      description: 'csv (RFC 4180, UTF-8) or xlsx (one sheet "products")',
    }),
    languages: exportOptionFields.languages,
    groupId: Type.Optional({
      ...exportOptionFields.groupId,
      description: 'Products of this group (with includeSubgroups: of its subgroups too)',
    }),
    ...spreadsheetOnlyFields,
  },
  { additionalProperties: false },
);

/** A new file of pim's machine: an absolute path in a folder that exists, no file there yet. */
async function requireNewFile(path: string): Promise<void> {
  requireAbsolute(path);
  const folder = await stat(dirname(path)).catch(() => undefined);
  if (!folder?.isDirectory())
    throw new ValidationError(`path ${path}: its folder does not exist on pim\u2019s machine`);
  if (await stat(path).catch(() => undefined))
    throw new ConflictError(`${path} exists already: pim does not replace it`);
}

/** A file of pim's machine is named by an absolute path: a relative one depends on where pim runs. */
function requireAbsolute(path: string): void {
  if (!isAbsolute(path)) throw new ValidationError('path must be an absolute path', 'VALIDATION_FAILED');
}

/** Long work as jobs (REST's /api/import, /api/export and /api/job): imports, exports, follow a job. */
export const jobTools = [
  defineTool({
    name: 'import_bmecat',
    title: 'Import a BMEcat file',
    description:
      'Imports a BMEcat catalogue (2005 or 1.2; T_NEW_CATALOG merges by SUPPLIER_PID, T_UPDATE_PRODUCTS follows ' +
      'each product\u2019s mode, T_UPDATE_PRICES replaces prices) from a file on the machine pim runs on into the open workspace, as a job. Returns ' +
      'the job at once (state running); follow it with get_job until its state is succeeded (its report has the ' +
      'counts), failed (its error names the line and column; nothing was written) or cancelled.',
    input: ImportBmecatInput,
    output: JobDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => {
      requireAbsolute(input.path);
      const file = await stat(input.path).catch(() => undefined);
      if (!file?.isFile()) throw new ValidationError(`path ${input.path} is not a file pim can read`);
      const { job } = await startBmecatImport(deps.jobs, ctx, {
        path: input.path,
        name: basename(input.path),
        mode: input.mode ?? 'merge',
        dryRun: input.dryRun === true,
        continueOnError: input.continueOnError === true,
      });
      return job;
    },
  }),
  defineTool({
    name: 'import_spreadsheet',
    title: 'Import a spreadsheet (CSV, XLSX)',
    description:
      'Imports a spreadsheet (CSV in UTF-8 or XLSX; one product a row, keyed by supplierPid; the columns ' +
      'supplierPid, masterSupplierPid, groupId, the product fields, short[LANG], long[LANG], feature[FTIDREF][LANG], ' +
      'feature[FTIDREF].unit, as the spreadsheet export writes them) from a file on the machine pim runs on into ' +
      'the open workspace, as a job: only what differs from the stored products is written; an empty cell removes ' +
      'the value. Returns the job at once; follow it with get_job: its report counts created, changed and ' +
      'unchanged products; a failed job names the row (line) and column and wrote nothing.',
    input: ImportSpreadsheetInput,
    output: JobDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => {
      requireAbsolute(input.path);
      const format = input.format ?? spreadsheetFormatOf(input.path);
      if (!format)
        throw new ValidationError('format is needed: the file name ends in neither .csv nor .xlsx');
      const file = await stat(input.path).catch(() => undefined);
      if (!file?.isFile()) throw new ValidationError(`path ${input.path} is not a file pim can read`);
      const { job } = await startSpreadsheetImport(deps.jobs, ctx, {
        path: input.path,
        name: basename(input.path),
        format,
        dryRun: input.dryRun === true,
        continueOnError: input.continueOnError === true,
      });
      return job;
    },
  }),
  defineTool({
    name: 'export_bmecat',
    title: 'Export a BMEcat file',
    description:
      'Exports the open workspace as a BMEcat T_NEW_CATALOG (header, feature definitions, group system, every ' +
      'product with what pim keeps of it, the products\u2019 groups) into a new file on the machine pim runs on, ' +
      'as a job. Returns the job at once; follow it with get_job: its report has the counts and the problems ' +
      '(values over BMEcat\u2019s limits). The file appears only once complete; an existing file is never replaced.',
    input: ExportBmecatInput,
    output: JobDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => {
      await requireNewFile(input.path);
      const { path, ...options } = input;
      const { job } = await startBmecatExport(deps.jobs, ctx, {
        path,
        options: exportOptionsOf(options),
        replace: false,
      });
      return job;
    },
  }),
  defineTool({
    name: 'export_spreadsheet',
    title: 'Export a spreadsheet (CSV, XLSX)',
    description:
      'Exports products of the open workspace as a spreadsheet, one product a row, into a new file on the ' +
      'machine pim runs on, as a job. The selection: ids (a comma list) or the product grid\u2019s filters (q, ' +
      'groupId, includeSubgroups, mainOnly, updatedSince, textLang/text, ftidref/feature; none: every product), ' +
      'includeVariants; columns (a comma list: supplierPid, short[deu], feature[FTIDREF][eng], ' +
      'feature[FTIDREF].unit, ...; default every field, text and feature in use) and languages as GET /api/export ' +
      'takes them. The file reads back with import_spreadsheet. Returns the job at once; follow it with get_job: ' +
      'its report counts products and columns. The file appears only once complete; an existing file is never ' +
      'replaced.',
    input: ExportSpreadsheetInput,
    output: JobDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 202,
    run: async (ctx, input, deps) => {
      await requireNewFile(input.path);
      const { path, format, ...query } = input;
      const { job } = await startSpreadsheetExport(deps.jobs, ctx, {
        path,
        options: spreadsheetOptionsOf(format, query),
        replace: false,
      });
      return job;
    },
  }),
  defineTool({
    name: 'get_job',
    title: 'Get a job',
    description:
      'A job (an import, an export, a mass edit): state (queued, running, succeeded, failed, cancelled), products processed, and ' +
      'at the end its report or its error with line and column. A user sees their own jobs, an ADMIN every job.',
    input: IdParams,
    output: JobDto,
    effect: 'read',
    right: RIGHTS.read,
    workspace: false,
    run: (ctx, input, deps) => deps.jobs.get(ctx, input.id),
  }),
];
