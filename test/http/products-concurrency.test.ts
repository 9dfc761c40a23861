import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  supplierPid: string;
  name: string;
  variantCount: number;
  updatedAt: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = (label = 'C') => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });

async function create(body: Record<string, unknown> = {}): Promise<Product> {
  const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

/** Everything a client can read about a product, to compare before and after a failed request. */
async function snapshot(id: number): Promise<unknown> {
  const paths = ['', '/variants', '/texts/short', '/texts/long', '/features'];
  return Promise.all(paths.map(async (p) => (await call('GET', `/api/product/${id}${p}`)).body));
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('concurrency', () => {
  it('loses nothing when 50 products are created in parallel', async () => {
    const pids = Array.from({ length: 50 }, () => pid('PAR'));
    const results = await Promise.all(
      pids.map((supplierPid, i) =>
        call<Product>('POST', '/api/product', { supplierPid, name: `Produkt ${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(pids.map(() => 201));
    const ids = results.map((r) => r.body.data!.id);
    expect(new Set(ids).size).toBe(50);
    const list = await call<Product[]>('GET', '/api/product');
    const listed = new Map(list.body.data!.map((p) => [p.id, p]));
    results.forEach((r, i) => {
      expect(listed.get(r.body.data!.id)).toMatchObject({ supplierPid: pids[i], name: `Produkt ${i}` });
    });
  });

  it('creates a contested supplierPid exactly once; the other requests get 409', async () => {
    const supplierPid = pid('RACE');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call<Product>('POST', '/api/product', { supplierPid, name: `try ${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('SUPPLIER_PID_TAKEN');
    const list = await call<Product[]>('GET', '/api/product');
    const matching = list.body.data!.filter((p) => p.supplierPid === supplierPid);
    expect(matching).toHaveLength(1);
    const winner = results.find((r) => r.status === 201)!.body.data!;
    expect(matching[0]).toEqual(winner);
  });

  it('writes in flight together each get their own answer: the refused ones leave nothing, the others all land', async () => {
    const taken = await create();
    const texted = await Promise.all(Array.from({ length: 5 }, () => create()));
    const fresh = Array.from({ length: 20 }, () => pid('MIX'));
    // Interleaved, so that refused writes fall between accepted ones (on SQLite they may share a commit).
    const requests = fresh.flatMap((supplierPid, i) => [
      call<Product>('POST', '/api/product', { supplierPid, name: `Neu ${i}` }),
      ...(i % 4 === 0
        ? [
            call('POST', '/api/product', { supplierPid: taken.supplierPid, name: 'twice' }),
            call('PUT', `/api/product/${texted[i / 4]!.id}/texts/short/deu`, { value: `Text ${i}` }),
            call('PUT', '/api/product/999999999/texts/short/deu', { value: 'nobody' }),
          ]
        : []),
    ]);
    const results = await Promise.all(requests);
    const byStatus = (status: number) => results.filter((r) => r.status === status).length;
    expect([byStatus(201), byStatus(409), byStatus(200), byStatus(404)]).toEqual([20, 5, 5, 5]);
    const list = await call<Product[]>('GET', '/api/product');
    const listed = list.body.data!;
    expect(listed.filter((p) => p.supplierPid === taken.supplierPid)).toEqual([taken]);
    fresh.forEach((supplierPid, i) => {
      expect(listed.filter((p) => p.supplierPid === supplierPid)).toMatchObject([{ name: `Neu ${i}` }]);
    });
    for (const [n, product] of texted.entries()) {
      const text = await call<{ value: string }>('GET', `/api/product/${product.id}/texts/short/deu`);
      expect(text.body.data!.value).toBe(`Text ${n * 4}`);
    }
  });

  it('contested variants and renames: exactly one wins, no half-written data', async () => {
    const main = await create();
    const supplierPid = pid('VRACE');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', `/api/product/${main.id}/variants`, { supplierPid, name: `v${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const main2 = await call<Product>('GET', `/api/product/${main.id}`);
    expect(main2.body.data!.variantCount).toBe(1);

    const a = await create();
    const b = await create();
    const target = pid('REN');
    const renames = await Promise.all(
      [a, b].map((p) =>
        call('PUT', `/api/product/${p.id}`, { supplierPid: target, name: `renamed ${p.id}` }),
      ),
    );
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = renames[0]!.status === 409 ? a : b;
    expect((await call<Product>('GET', `/api/product/${loser.id}`)).body.data).toEqual(loser);
  });

  it('parallel writes of texts and features of one product all land', async () => {
    const p = await create();
    const langs = ['deu', 'eng', 'fra', 'ita', 'spa', 'nld', 'pol', 'ces', 'dan', 'swe'];
    const writes = await Promise.all([
      ...langs.map((lang) =>
        call('PUT', `/api/product/${p.id}/texts/long/${lang}`, { value: `long ${lang}` }),
      ),
      ...langs.map((lang, i) =>
        call('PUT', `/api/product/${p.id}/features/${encodeURIComponent(`NEW#${seq}#${i}`)}`, {
          values: [{ lang, value: String(i) }],
        }),
      ),
      ...langs.map((lang) => call('PUT', `/api/product/${p.id}/features/SHARED/${lang}`, { value: lang })),
    ]);
    expect(writes.every((w) => w.status === 200)).toBe(true);
    const texts = await call<unknown[]>('GET', `/api/product/${p.id}/texts/long`);
    expect(texts.body.data).toHaveLength(10);
    const features = await call<Array<{ ftidref: string; values: unknown[] }>>(
      'GET',
      `/api/product/${p.id}/features`,
    );
    expect(features.body.data).toHaveLength(11);
    expect(features.body.data!.find((f) => f.ftidref === 'SHARED')!.values).toHaveLength(10);
  });

  it('parallel first use of a new ftidref on many products creates one definition', async () => {
    const products = await Promise.all(Array.from({ length: 10 }, () => create()));
    const ftidref = `0173-1#02-RACE${seq}#001`;
    const results = await Promise.all(
      products.map((p) =>
        call('PUT', `/api/product/${p.id}/features/${encodeURIComponent(ftidref)}`, {
          funit: 'mm',
          values: [{ lang: 'deu', value: String(p.id) }],
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(products.map(() => 200));
    for (const p of products) {
      const f = await call<{ values: unknown[] }>(
        'GET',
        `/api/product/${p.id}/features/${encodeURIComponent(ftidref)}`,
      );
      expect(f.body.data).toEqual({
        ftidref,
        funit: 'mm',
        names: [],
        values: [{ lang: 'deu', value: String(p.id) }],
      });
    }
  });
});

describe('a failed request changes nothing', () => {
  async function prepared() {
    const p = await create({ name: 'Original', ean: '1' });
    await call('PUT', `/api/product/${p.id}/texts/long/deu`, { value: 'Lang' });
    await call('PUT', `/api/product/${p.id}/features/F1`, {
      funit: 'mm',
      values: [{ lang: 'deu', value: '1' }],
    });
    await call('POST', `/api/product/${p.id}/variants`, { supplierPid: pid() });
    return p;
  }

  it('on product updates', async () => {
    const p = await prepared();
    const other = await create();
    const before = await snapshot(p.id);
    server.clock.advance(1000);
    const failures: Array<[string, unknown, number]> = [
      ['PUT', { name: 'Neu', ean: 'x'.repeat(129) }, 400],
      ['PUT', { name: 'Neu', language: 'xx' }, 400],
      ['PUT', { name: 'Neu', supplierPid: other.supplierPid }, 409],
      ['PUT', { name: 'Neu', masterProductId: other.id }, 400],
      ['PUT', { name: 'Neu', unknownField: true }, 400],
      ['PUT', { name: 'x'.repeat(1_000_001) }, 400],
    ];
    for (const [method, body, status] of failures) {
      expect((await call(method, `/api/product/${p.id}`, body)).status).toBe(status);
    }
    expect(await snapshot(p.id)).toEqual(before);
  });

  it('on creates', async () => {
    const p = await prepared();
    const variant = (await call<Product[]>('GET', `/api/product/${p.id}/variants`)).body.data![0]!;
    const before = (await call<Product[]>('GET', '/api/product?all=true')).body.data;
    const beforeMain = await snapshot(p.id);
    server.clock.advance(1000);
    const attempts: Array<[string, unknown, number]> = [
      ['/api/product', { supplierPid: pid(), name: 'x', masterProductId: 999999 }, 404],
      ['/api/product', { supplierPid: pid(), name: 'x', masterProductId: variant.id }, 400],
      ['/api/product', { supplierPid: p.supplierPid, name: 'dup' }, 409],
      ['/api/product', { supplierPid: pid(), name: 'x', language: 'nope' }, 400],
      [`/api/product/${p.id}/variants`, { supplierPid: p.supplierPid, name: 'dup' }, 409],
      [`/api/product/${variant.id}/variants`, { supplierPid: pid() }, 400],
    ];
    for (const [path, body, status] of attempts) expect((await call('POST', path, body)).status).toBe(status);
    expect((await call<Product[]>('GET', '/api/product?all=true')).body.data).toEqual(before);
    expect(await snapshot(p.id)).toEqual(beforeMain);
  });

  it('on texts and features', async () => {
    const p = await prepared();
    const before = await snapshot(p.id);
    server.clock.advance(1000);
    const failures: Array<[string, string, unknown, number]> = [
      ['PUT', '/texts/long/xx', { value: 'v' }, 400],
      ['PUT', '/texts/long/deu', { value: 'x'.repeat(1_000_001) }, 400],
      ['PUT', '/texts/long/deu', { value: 5 }, 400],
      ['DELETE', '/texts/short/eng', undefined, 404],
      [
        'PUT',
        '/features/F1',
        {
          funit: 'cm',
          values: [
            { lang: 'eng', value: 'ok' },
            { lang: 'xxx', value: 'x' },
          ],
        },
        400,
      ],
      [
        'PUT',
        '/features/F1',
        {
          values: [
            { lang: 'eng', value: 'a' },
            { lang: 'eng', value: 'b' },
          ],
        },
        400,
      ],
      ['PUT', '/features/F1', { ftidref: 'F2', values: [{ lang: 'eng', value: 'a' }] }, 400],
      ['PUT', '/features/NEW', { values: [{ lang: 'eng' }] }, 400],
      ['PUT', '/features/NEW', { funit: 'x'.repeat(129), values: [] }, 400],
      ['PUT', '/features/NEW/deu', { value: 'x'.repeat(1_000_001) }, 400],
      ['DELETE', '/features/F1/eng', undefined, 404],
      ['DELETE', '/features/NEW', undefined, 404],
    ];
    for (const [method, path, body, status] of failures) {
      expect((await call(method, `/api/product/${p.id}${path}`, body)).status, `${method} ${path}`).toBe(
        status,
      );
    }
    expect(await snapshot(p.id)).toEqual(before);
  });
});
