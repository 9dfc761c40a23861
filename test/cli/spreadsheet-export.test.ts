import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { parseCsvStrict } from '../helpers/csv.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { bmecatSample } from '../helpers/bmecat-samples.js';
import { readXlsx } from '../helpers/xlsx.js';

/** `pim export FILE.csv|FILE.xlsx|-`: a spreadsheet of the workspace, as a user runs it. */
const SAMPLE = bmecatSample('WEI_BMECat_1609801044.xml');

let dataDir: string;
beforeEach(async () => {
  dataDir = await newDataDir();
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Main']));
  expect((await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Main'])).code).toBe(0);
});
afterEach(() => removeDataDir(dataDir));

describe('pim export (spreadsheets)', () => {
  it('takes the format from the extension and replaces the file only once it is whole', async () => {
    const csv = join(dataDir, 'out.csv');
    writeFileSync(csv, 'an older export');
    const result = await runCliAsync(dataDir, ['export', csv, '--workspace', 'Main', '--bom']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^exported workspace Main to ${csv} \\(CSV\\): 1 products, \\d+ columns`),
    );
    const text = readFileSync(csv, 'utf8');
    expect(text.startsWith('\uFEFFid,supplierPid,masterSupplierPid,groupId,')).toBe(true);
    const rows = parseCsvStrict(text.slice(1));
    expect(rows).toHaveLength(2);
    expect(rows[1]![1]).toBe('1609801044');

    const xlsx = join(dataDir, 'out.xlsx');
    expect((await runCliAsync(dataDir, ['export', xlsx, '--workspace', 'Main'])).code).toBe(0);
    const { rows: sheet, parts } = readXlsx(readFileSync(xlsx));
    expect(parts).toContain('xl/workbook.xml');
    expect(sheet.map((r) => r.slice(0, 2))).toEqual(rows.map((r) => r.slice(0, 2)));
    expect(readdirSync(dataDir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('streams to standard output with -, the columns asked for', async () => {
    const result = await runCliAsync(dataDir, [
      'export',
      '-',
      '--workspace',
      'Main',
      '--format',
      'csv',
      '--columns',
      'supplierPid,short[deu]',
      '--q',
      '1609801044',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = parseCsvStrict(result.stdout);
    expect(rows[0]).toEqual(['supplierPid', 'short[deu]']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['1609801044']);
  });

  it('answers mistakes in one line and writes nothing', async () => {
    const file = join(dataDir, 'x.xlsx');
    expectOneLineError(
      await runCliAsync(dataDir, ['export', file, '--workspace', 'Main', '--bom']),
      /^pim: --bom: bom applies to format csv only, not xlsx$/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', file, '--workspace', 'Main', '--strict']),
      /^pim: --strict: strict applies to the BMEcat formats only, not xlsx$/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', join(dataDir, 'x.xml'), '--workspace', 'Main', '--main-only']),
      /^pim: --main-only: mainOnly applies to format csv or xlsx only/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', file, '--workspace', 'Main', '--columns', 'nope']),
      /unknown column 'nope'/,
    );
    expect(readdirSync(dataDir).filter((f) => f.startsWith('x.'))).toEqual([]);
  });
});
