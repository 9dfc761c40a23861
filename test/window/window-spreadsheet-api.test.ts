import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvStrict } from '../helpers/csv.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';
import { xlsxFile } from '../helpers/xlsx-file.js';

/**
 * The window's endpoints of File › Export view… (src/window/routes/export-view.routes.ts) and the
 * spreadsheet side of File › Import… (import.routes.ts): the same export and import services as
 * REST's, the view checked before the download, the download once and for its user only.
 * One application for the file: each test names the products it makes by a prefix of its own.
 */
interface Job {
  id: number;
  kind: string;
  state: string;
  report: Record<string, unknown> | null;
  error: { message: string; line: number | null; column: number | null } | null;
}

interface Ready {
  url: string;
  fileName: string;
  products: number;
}

const CSV = { 'content-type': 'text/csv' };
const XLSX = { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

let server: TestServer;
let window: WindowClient;
let token: string;
beforeAll(async () => {
  server = await startServer({ window: true });
  window = new WindowClient(server);
  await window.login();
  token = await server.login();
});
afterAll(async () => server.stop());

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await server.request<T>(method, path, { token, body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data as T;
}

/** The download of a prepared export, as the browser fetches it (a GET of its address). */
const download = (ready: Ready, client = window) => client.request('GET', ready.url.slice('/ui/api'.length));

const ended = (id: number) => window.endedJob<Job>(id);

async function names(prefix: string): Promise<Record<string, string>> {
  const products = await rest<{ supplierPid: string; name: string }[]>(
    'GET',
    `/api/product?all=true&q=${prefix}`,
  );
  return Object.fromEntries(products.map((p) => [p.supplierPid, p.name]));
}

describe('File › Export view… on the server', () => {
  it('exports the grid’s filters or picked ids with its columns, once, to its user', async () => {
    const main = await rest<{ id: number }>('POST', '/api/product', { supplierPid: 'EV-1', name: 'Bohrer' });
    await rest('POST', '/api/product', { supplierPid: 'EV-1-A', name: 'Bohrer A', masterProductId: main.id });
    const saw = await rest<{ id: number }>('POST', '/api/product', { supplierPid: 'EV-2', name: '=Säge' });
    await rest('PUT', `/api/product/${saw.id}/texts/short/eng`, { value: 'Saw' });
    await rest('POST', '/api/product', { supplierPid: 'OTHER-1', name: 'Hammer' });

    const options = await window.request<{ languages: string[]; textLanguages: string[] }>(
      'GET',
      '/export/view/options',
    );
    expect(options.body.data).toEqual({
      languages: ['deu', 'eng'],
      textLanguages: ['deu', 'eng'],
      defaultLanguage: 'deu',
    });

    // The grid's filters (main products matching "EV-") with variants, as the grid's columns map.
    const asked = await window.request<Ready>('POST', '/export/view', {
      body: {
        format: 'csv',
        select: { q: 'EV-', mainOnly: true, includeVariants: true },
        columns: ['supplierPid', 'short[deu]', 'short[eng]', 'masterSupplierPid'],
        languages: ['deu', 'eng'],
        bom: true,
      },
    });
    expect(asked.status, asked.text).toBe(200);
    const ready = asked.body.data!;
    expect(ready).toMatchObject({ fileName: 'Test.csv', products: 3 });
    expect(ready.url).toMatch(/^\/ui\/api\/export\/view\/[A-Za-z0-9_-]{24}$/);
    const file = await download(ready);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Test.csv"; filename*=UTF-8''Test.csv`,
    );
    expect([...file.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseCsvStrict(file.text)).toEqual([
      ['supplierPid', 'short[deu]', 'short[eng]', 'masterSupplierPid'],
      ['EV-1', 'Bohrer', '', ''],
      ['EV-1-A', 'Bohrer A', '', 'EV-1'],
      ['EV-2', "'=Säge", 'Saw', ''],
    ]);
    // Once: the address is spent.
    expect((await download(ready)).body.code).toBe('NOT_FOUND');

    // Picked ids, as XLSX, to a VIEWER (a read); another user cannot use the address.
    await server.addUser('vera', 'VIEWER');
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    const picked = await viewer.request<Ready>('POST', '/export/view', {
      body: { format: 'xlsx', select: { ids: [saw.id] }, columns: ['supplierPid'] },
    });
    expect(picked.body.data).toMatchObject({ fileName: 'Test.xlsx', products: 1 });
    // One desktop user at a time: the admin logs in again, and cannot use the VIEWER's address.
    await window.login();
    expect((await download(picked.body.data!)).status).toBe(404);
  });

  it('refuses a bad view in the envelope before any download, and answers nothing without a session', async () => {
    const refused = async (body: unknown) => {
      const res = await window.request('POST', '/export/view', { body });
      return [res.status, res.body.code, res.body.field ?? null];
    };
    expect(await refused({ format: 'csv', select: {}, columns: ['colour'] })).toEqual([
      400,
      'VALIDATION_FAILED',
      'columns',
    ]);
    expect(await refused({ format: 'xlsx', select: {}, bom: true })).toEqual([
      400,
      'VALIDATION_FAILED',
      'bom',
    ]);
    expect((await refused({ format: 'csv', select: { groupId: 9999 } }))[0]).toBe(404);
    expect((await refused({ format: 'ods', select: {} }))[0]).toBe(400);
    expect((await refused({ format: 'csv', select: { ids: [1], q: 'x' } }))[0]).toBe(400);
    const unknown = await window.request('GET', `/export/view/${'a'.repeat(24)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const stranger = new WindowClient(server);
    expect((await stranger.request('GET', '/export/view/options')).status).toBe(401);
    expect(
      (await stranger.request('POST', '/export/view', { body: { format: 'csv', select: {} } })).status,
    ).toBe(401);
  });
});

describe('File › Import… of a spreadsheet on the server', () => {
  it('imports CSV and XLSX as jobs: a dry run counts, a bad cell names its row and column and writes nothing', async () => {
    await rest('POST', '/api/product', { supplierPid: 'IM-1', name: 'Alt' });
    await rest('POST', '/api/product', { supplierPid: 'IM-2', name: 'Gleich' });
    const csv = 'supplierPid,short[deu]\r\nIM-1,Neu\r\nIM-2,Gleich\r\nIM-3,Dazu\r\n';
    const upload = (body: string | Uint8Array, query: string, headers = CSV) =>
      window.request<Job>('POST', `/import${query}`, { raw: body, headers });

    const dry = await upload(csv, '?name=products.csv&dryRun=true');
    expect(dry.status, dry.text).toBe(202);
    expect(await ended(dry.body.data!.id)).toMatchObject({
      kind: 'spreadsheet-import',
      state: 'succeeded',
      report: { dryRun: true, rows: 3, created: 1, changed: 1, unchanged: 1 },
    });
    expect(await names('IM-')).toEqual({ 'IM-1': 'Alt', 'IM-2': 'Gleich' });

    const bad = await upload(`supplierPid,ean\r\nIM-1,${'1'.repeat(200)}\r\n`, '?name=bad.csv');
    expect(await ended(bad.body.data!.id)).toMatchObject({ state: 'failed', error: { line: 2, column: 2 } });
    // With continue on error the bad row is listed with its place and the others are written.
    const xlsx = xlsxFile([
      ['supplierPid', 'short[deu]', 'ean'],
      ['IM-1', 'Neu', ''],
      ['IM-3', 'Dazu', '2'.repeat(200)],
    ]);
    const mixed = await upload(xlsx, '?name=mixed.xlsx&continueOnError=true', XLSX);
    const job = await ended(mixed.body.data!.id);
    expect(job).toMatchObject({ state: 'succeeded', report: { changed: 1, skippedCount: 1 } });
    expect((job.report!.skipped as unknown[])[0]).toMatchObject({ row: 3, column: 3, columnName: 'ean' });
    expect(await names('IM-')).toEqual({ 'IM-1': 'Neu', 'IM-2': 'Gleich' });
    // BMEcat's mode has no meaning for a spreadsheet: refused, no job.
    expect((await upload(csv, '?mode=merge')).status).toBe(400);
  });
});
