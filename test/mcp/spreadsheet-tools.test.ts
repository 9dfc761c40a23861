import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvStrict } from '../helpers/csv.js';
import { ok } from '../helpers/mcp.js';
import { fail, sessionPerTest, type McpSession } from '../helpers/mcp-session.js';
import { readXlsx } from '../helpers/xlsx.js';
import { xlsxFile } from '../helpers/xlsx-file.js';

/**
 * import_spreadsheet and export_spreadsheet: an agent imports a CSV or XLSX file of pim's machine, or
 * exports a view into one, as a job and follows it.
 */
const { open } = sessionPerTest();

interface Job {
  id: number;
  kind: string;
  state: string;
  report: Record<string, unknown> | null;
  error: { message: string; line: number | null; column: number | null } | null;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pim-mcp-sheet-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The job once it has ended, as get_job shows it. */
async function ended(s: McpSession, id: number): Promise<Job> {
  let job: Job | undefined;
  await expect
    .poll(async () => {
      job = await ok<Job>(s.client, 'get_job', { id });
      return job.state;
    })
    .not.toMatch(/^(queued|running)$/);
  return job!;
}

describe('import_spreadsheet', () => {
  it('imports CSV and XLSX files as jobs that get_job follows; a bad cell fails with its row and column', async () => {
    const s = await open();
    const csv = join(dir, 'products.csv');
    writeFileSync(csv, 'supplierPid,short[eng]\r\nMC-1,Drill\r\nMC-2,Saw\r\n');
    const started = await ok<Job>(s.client, 'import_spreadsheet', { path: csv });
    expect(started).toMatchObject({ kind: 'spreadsheet-import', state: 'running' });
    expect(await ended(s, started.id)).toMatchObject({ state: 'succeeded', report: { rows: 2, created: 2 } });

    const xlsx = join(dir, 'products.xlsx');
    writeFileSync(
      xlsx,
      xlsxFile([
        ['supplierPid', 'short[eng]'],
        ['MC-1', 'Drill'],
        ['MC-2', 'Hand saw'],
      ]),
    );
    const dry = await ok<Job>(s.client, 'import_spreadsheet', { path: xlsx, dryRun: true });
    expect(await ended(s, dry.id)).toMatchObject({ report: { changed: 1, unchanged: 1 } });
    const products = await s.rest<{ supplierPid: string; name: string }[]>('GET', '/api/product?all=true');
    expect(products.body.data!.map((p) => p.name)).toEqual(['Drill', 'Saw']);

    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'supplierPid,ean\r\nMC-3,' + 'e'.repeat(200) + '\r\n');
    const failed = await ok<Job>(s.client, 'import_spreadsheet', { path: bad, format: 'csv' });
    expect(await ended(s, failed.id)).toMatchObject({ state: 'failed', error: { line: 2, column: 2 } });
    expect(await fail(s.client, 'import_spreadsheet', { path: bad })).toMatchObject({ status: 400 });
    expect(await fail(s.client, 'import_spreadsheet', { path: 'products.csv' })).toMatchObject({
      status: 400,
    });
  });
});

describe('export_spreadsheet', () => {
  it('exports a selection with chosen columns into a new CSV or XLSX file as a job, never replacing a file', async () => {
    const s = await open();
    const csvIn = join(dir, 'in.csv');
    writeFileSync(
      csvIn,
      'supplierPid,short[eng],short[deu]\r\nEX-1,=1+1,Bohrer\r\nEX-2,Saw,S\u00e4ge\r\nEX-3,Hammer,\r\n',
    );
    expect(await ended(s, (await ok<Job>(s.client, 'import_spreadsheet', { path: csvIn })).id)).toMatchObject(
      {
        state: 'succeeded',
      },
    );

    const csv = join(dir, 'out.csv');
    const started = await ok<Job>(s.client, 'export_spreadsheet', {
      path: csv,
      format: 'csv',
      q: 'EX-',
      columns: 'supplierPid,short[eng]',
      bom: true,
    });
    expect(started).toMatchObject({ kind: 'spreadsheet-export' });
    expect(await ended(s, started.id)).toMatchObject({
      state: 'succeeded',
      report: { format: 'csv', products: 3, columns: 2, file: csv },
    });
    const text = readFileSync(csv, 'utf8');
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(parseCsvStrict(text.slice(1))).toEqual([
      ['supplierPid', 'short[eng]'],
      ['EX-1', "'=1+1"],
      ['EX-2', 'Saw'],
      ['EX-3', 'Hammer'],
    ]);

    const xlsx = join(dir, 'out.xlsx');
    const ids = (await s.rest<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true')).body
      .data!.filter((p) => p.supplierPid !== 'EX-2')
      .map((p) => p.id);
    const picked = await ok<Job>(s.client, 'export_spreadsheet', {
      path: xlsx,
      format: 'xlsx',
      ids: ids.join(','),
      languages: 'deu',
    });
    expect(await ended(s, picked.id)).toMatchObject({ state: 'succeeded', report: { products: 2 } });
    const { rows } = readXlsx(readFileSync(xlsx));
    const header = rows[0]!;
    expect(header).toContain('short[deu]');
    expect(header).not.toContain('short[eng]');
    const column = (name: string) => rows.slice(1).map((row) => row[header.indexOf(name)] ?? '');
    expect(column('supplierPid')).toEqual(['EX-1', 'EX-3']);
    expect(column('short[deu]')).toEqual(['Bohrer', '']);

    // Refused before a job starts, and no file is written: an existing file (left as it is), a
    // relative path, a parameter the format does not take, a column that names nothing.
    writeFileSync(join(dir, 'taken.csv'), 'mine');
    expect(
      await fail(s.client, 'export_spreadsheet', { path: join(dir, 'taken.csv'), format: 'csv' }),
    ).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(readFileSync(join(dir, 'taken.csv'), 'utf8')).toBe('mine');
    expect(await fail(s.client, 'export_spreadsheet', { path: 'out.csv', format: 'csv' })).toMatchObject({
      status: 400,
    });
    const never = join(dir, 'never.xlsx');
    expect(
      await fail(s.client, 'export_spreadsheet', { path: never, format: 'xlsx', bom: true }),
    ).toMatchObject({ status: 400, error: expect.stringMatching(/bom applies to format csv only/) });
    expect(
      await fail(s.client, 'export_spreadsheet', {
        path: never,
        format: 'xlsx',
        columns: 'colour,supplierPid',
      }),
    ).toMatchObject({ status: 400, error: expect.stringMatching(/unknown column 'colour'/) });
    expect(existsSync(never)).toBe(false);
  });
});
