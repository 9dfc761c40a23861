import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { featureCatalogue } from '../helpers/bmecat-samples.js';
import { importClient } from '../helpers/running-import.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Other users during an import (issue 35): the import is one transaction, and while it runs the
 * catalogue as last committed stays readable; an edit by someone else is not refused.
 */
let server: TestServer;
let token: string;
beforeEach(async () => {
  server = await startServer();
  token = await server.login();
});
afterEach(() => server.stop());

const { jobOf, runningImport, createProduct } = importClient(() => ({ server, token }));

describe('while a BMEcat import runs', () => {
  it('answers reads of the catalogue as last committed', async () => {
    const id = await createProduct('OTHER-1');
    const job = await runningImport('big.xml', 'application/xml', featureCatalogue(4_000));
    const read = await server.request<{ supplierPid: string }>('GET', `/api/product/${id}`, { token });
    const list = await server.request<{ supplierPid: string }[]>('GET', '/api/product?all=true', { token });
    // Both answered while the import's transaction was still open: what it wrote so far is not seen.
    expect((await jobOf(job)).state).toBe('running');
    expect(read.status).toBe(200);
    expect(read.body.data!.supplierPid).toBe('OTHER-1');
    expect(list.body.data!.map((p) => p.supplierPid)).toEqual(['OTHER-1']);
    await expect.poll(async () => (await jobOf(job)).state, { timeout: 120_000 }).toBe('succeeded');
    const after = await server.request<unknown[]>('GET', '/api/product?all=true', { token });
    expect(after.body.data!.length).toBe(4_001);
  });

  it('applies an edit by another user, never refusing it while the import holds the writer', async () => {
    const id = await createProduct('OTHER-2');
    const job = await runningImport('big.xml', 'application/xml', featureCatalogue(4_000));
    const edit = await server.request('PUT', `/api/product/${id}/texts/short/deu`, {
      token,
      body: { value: 'Nachher' },
    });
    expect(edit.status).toBe(200);
    if (TEST_BACKEND === 'sqlite') {
      // One writer: the edit waited for the import's commit (docs/bmecat.md, "Other users"), and
      // was then written: the import's products are there by the time it is answered.
      const list = await server.request<unknown[]>('GET', '/api/product?all=true', { token });
      expect(list.body.data!.length).toBe(4_001);
    }
    await expect.poll(async () => (await jobOf(job)).state, { timeout: 120_000 }).toBe('succeeded');
    const read = await server.request<{ name: string }>('GET', `/api/product/${id}`, { token });
    expect(read.body.data!.name).toBe('Nachher');
  });
});
