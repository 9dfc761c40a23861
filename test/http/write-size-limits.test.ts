import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp } from '../helpers/mcp.js';
import { fail } from '../helpers/mcp-session.js';
import { serverPerFile } from '../helpers/file-server.js';
import { BULK_ROWS_MAX, SHEET_ROWS_MAX } from '../../src/domain/products/product-limits.js';

/**
 * How much one call may write: the schemas' list limits alone allowed 250,000 feature values
 * for one product and millions in a bulk batch, seconds of synchronous work during which the
 * server answered nobody. Over the bounds the call is refused before anything is written.
 */
const shared = serverPerFile();
const call = (method: string, path: string, body?: unknown) =>
  shared.server.request(method, path, { token: shared.token, body });
const langs = ['deu', 'eng', 'fra', 'ita', 'spa', 'nld', 'pol', 'ces', 'dan', 'swe'];

/** A document with `features` features of 10 values each. */
function documentWith(supplierPid: string, features: number) {
  return {
    supplierPid,
    features: Array.from({ length: features }, (_, i) => ({
      ftidref: `LIMIT-${i}`,
      values: langs.map((lang) => ({ lang, value: `${i}` })),
    })),
  };
}

/** 500 features (the schema's most) of 21 values each: 10,500 values, over the per-product bound. */
const tooManyFeatures = Array.from({ length: 500 }, (_, i) => ({
  ftidref: `MANY-${i}`,
  values: [...langs, 'por', 'fin', 'hun', 'ell', 'tur', 'rus', 'ukr', 'ron', 'bul', 'hrv', 'slk'].map(
    (lang) => ({
      lang,
      value: 'x',
    }),
  ),
}));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

describe('rows written by one call', () => {
  it(`bulk: refuses a batch of more than ${BULK_ROWS_MAX} texts and feature values, storing nothing`, async () => {
    // 201 documents of 50 features × 10 values: 100,500 values.
    const documents = Array.from({ length: 201 }, (_, i) => documentWith(`ROWS-${i}`, 50));
    const res = await call('POST', '/api/product/bulk', documents);
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: `A batch holds at most ${BULK_ROWS_MAX} texts and feature values, this one 100500: split it`,
      code: 'BATCH_TOO_LARGE',
    });
    expect((await call('GET', '/api/product?all=true&supplierPid=ROWS-0')).body.data).toEqual([]);
    // The same documents in two batches are stored.
    for (const half of [documents.slice(0, 100), documents.slice(100)]) {
      const stored = await call('POST', '/api/product/bulk', half);
      expect(stored.status, stored.text.slice(0, 300)).toBe(200);
      expect((stored.body.data as { status: number }[]).every((r) => r.status === 201)).toBe(true);
    }
  });

  it(`bulk: a document of more than ${SHEET_ROWS_MAX} is refused alone; the others are stored`, async () => {
    const res = await call('POST', '/api/product/bulk', [
      { supplierPid: 'ROWS-BIG', features: tooManyFeatures },
      documentWith('ROWS-SMALL', 2),
    ]);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.data).toEqual([
      {
        supplierPid: 'ROWS-BIG',
        id: null,
        status: 400,
        error: `A product's texts and feature values are at most ${SHEET_ROWS_MAX} in one call, these are 10500: split them over several calls`,
        code: 'SHEET_TOO_LARGE',
      },
      { supplierPid: 'ROWS-SMALL', id: expect.any(Number), status: 201 },
    ]);
  });

  it('MCP create_product and update_product refuse more than the bound, writing nothing', async () => {
    const client = await connectHttp(shared.server.baseUrl, shared.token);
    closers.push(() => client.close());
    const features = tooManyFeatures;
    const refused = await fail(client, 'create_product', { supplierPid: 'ROWS-MCP', features });
    expect(refused).toEqual({
      error: `A product's texts and feature values are at most ${SHEET_ROWS_MAX} in one call, these are 10500: split them over several calls`,
      code: 'SHEET_TOO_LARGE',
      status: 400,
    });
    expect((await call('GET', '/api/product?all=true&supplierPid=ROWS-MCP')).body.data).toEqual([]);
    const created = await call('POST', '/api/product', { supplierPid: 'ROWS-MCP-2' });
    const id = (created.body.data as { id: number }).id;
    expect((await fail(client, 'update_product', { id, ean: '4006381333931', features })).code).toBe(
      'SHEET_TOO_LARGE',
    );
    const after = await call('GET', `/api/product/${id}`);
    expect((after.body.data as { ean: string | null }).ean).toBeNull();
    expect((await call('GET', `/api/product/${id}/features`)).body.data).toEqual([]);
  });
});
