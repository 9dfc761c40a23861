import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcp.js';
import { fail, sessionPerTest } from '../helpers/mcp-session.js';
import { xlsxFile } from '../helpers/xlsx-file.js';

/** import_spreadsheet: an agent imports a CSV or XLSX file of pim's machine as a job and follows it. */
const { open } = sessionPerTest();

interface Job {
  id: number;
  kind: string;
  state: string;
  report: { rows: number; created: number; changed: number; unchanged: number } | null;
  error: { message: string; line: number | null; column: number | null } | null;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pim-mcp-sheet-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import_spreadsheet', () => {
  it('imports CSV and XLSX files as jobs that get_job follows; a bad cell fails with its row and column', async () => {
    const s = await open();
    const ended = async (id: number) => {
      let job: Job | undefined;
      await expect
        .poll(async () => {
          job = await ok<Job>(s.client, 'get_job', { id });
          return job.state;
        })
        .not.toMatch(/^(queued|running)$/);
      return job!;
    };
    const csv = join(dir, 'products.csv');
    writeFileSync(csv, 'supplierPid,short[eng]\r\nMC-1,Drill\r\nMC-2,Saw\r\n');
    const started = await ok<Job>(s.client, 'import_spreadsheet', { path: csv });
    expect(started).toMatchObject({ kind: 'spreadsheet-import', state: 'running' });
    expect(await ended(started.id)).toMatchObject({ state: 'succeeded', report: { rows: 2, created: 2 } });

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
    expect(await ended(dry.id)).toMatchObject({ report: { changed: 1, unchanged: 1 } });
    const products = await s.rest<{ supplierPid: string; name: string }[]>('GET', '/api/product?all=true');
    expect(products.body.data!.map((p) => p.name)).toEqual(['Drill', 'Saw']);

    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'supplierPid,ean\r\nMC-3,' + 'e'.repeat(200) + '\r\n');
    const failed = await ok<Job>(s.client, 'import_spreadsheet', { path: bad, format: 'csv' });
    expect(await ended(failed.id)).toMatchObject({ state: 'failed', error: { line: 2, column: 2 } });
    expect(await fail(s.client, 'import_spreadsheet', { path: bad })).toMatchObject({ status: 400 });
    expect(await fail(s.client, 'import_spreadsheet', { path: 'products.csv' })).toMatchObject({
      status: 400,
    });
  });
});
