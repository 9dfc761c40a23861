import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { importClient } from '../helpers/running-import.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Other users while a spreadsheet import runs (issue 36; as import-concurrency.test.ts for
 * BMEcat): the import is one transaction and gives the event loop a turn now and then, so reads
 * of the catalogue as last committed are answered while it runs, and an edit by someone else is
 * applied, not refused.
 */
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

const { jobOf, runningImport: runningUpload, createProduct } = importClient(() => ({ server, token }));

/**
 * An import of 4,000 new products, running: the reads come while it does (a few hundred rows are
 * done in one batch, before a second request could be sent).
 */
function runningImport(prefix: string): Promise<number> {
  let csv = 'supplierPid,short[deu]\r\n';
  for (let i = 1; i <= 4_000; i++) csv += `${prefix}-${i},Produkt ${i}\r\n`;
  return runningUpload('big.csv', 'text/csv', csv);
}

const pidsOf = async (q: string) =>
  (
    await server.request<{ supplierPid: string }[]>('GET', `/api/product?all=true&q=${q}`, { token })
  ).body.data!.map((p) => p.supplierPid);

describe('while a spreadsheet import runs', () => {
  it('answers reads of the catalogue as last committed', async () => {
    const id = await createProduct('OTHER-1');
    const job = await runningImport('READ');
    const read = await server.request<{ supplierPid: string }>('GET', `/api/product/${id}`, { token });
    const imported = await pidsOf('READ');
    // Both answered while the import's transaction was still open: what it wrote so far is not seen.
    expect((await jobOf(job)).state).toBe('running');
    expect(read.status).toBe(200);
    expect(read.body.data!.supplierPid).toBe('OTHER-1');
    expect(imported).toEqual([]);
    await expect.poll(async () => (await jobOf(job)).state, { timeout: 120_000 }).toBe('succeeded');
    expect((await pidsOf('READ')).length).toBe(4_000);
  });

  it('applies an edit by another user, never refusing it while the import holds the writer', async () => {
    const id = await createProduct('OTHER-2');
    const job = await runningImport('EDIT');
    const edit = await server.request('PUT', `/api/product/${id}/texts/short/deu`, {
      token,
      body: { value: 'Nachher' },
    });
    expect(edit.status).toBe(200);
    if (TEST_BACKEND === 'sqlite') {
      // One writer: the edit waited for the import's commit, then was written.
      expect((await pidsOf('EDIT')).length).toBe(4_000);
    }
    await expect.poll(async () => (await jobOf(job)).state, { timeout: 120_000 }).toBe('succeeded');
    const read = await server.request<{ name: string }>('GET', `/api/product/${id}`, { token });
    expect(read.body.data!.name).toBe('Nachher');
  });
});
