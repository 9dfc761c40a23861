import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  supplierPid: string;
  supplierIdRef: string | null;
  name: string;
  ean: string | null;
  manufacturerPid: string | null;
  masterProduct: boolean;
  variantCount: number;
  masterProductId: number | null;
  createdAt: string;
  updatedAt: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = (label = 'P') => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

const call = <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  tok = token,
): Promise<ApiResponse<T>> => server.request<T>(method, path, { token: tok, body });

async function create(body: Record<string, unknown> = {}): Promise<Product> {
  const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

async function get(id: number, query = ''): Promise<Product> {
  const res = await call<Product>('GET', `/api/product/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('POST /api/product', () => {
  it('creates a product: 201, Location, every field, unset fields null', async () => {
    const supplierPid = pid();
    const res = await call<Product>('POST', '/api/product', { supplierPid });
    expect(res.status).toBe(201);
    const id = res.body.data!.id;
    expect(res.headers.get('location')).toBe(`/api/product/${id}`);
    expect(res.body).toEqual({
      success: true,
      data: {
        id,
        supplierPid,
        supplierIdRef: null,
        name: '',
        ean: null,
        manufacturerPid: null,
        masterProduct: true,
        variantCount: 0,
        masterProductId: null,
        createdAt: server.clock.now().toISOString(),
        updatedAt: server.clock.now().toISOString(),
      },
    });
    expect(await get(id)).toEqual(res.body.data);
  });

  it('stores every field of CreateProductRequest', async () => {
    const supplierPid = pid();
    const created = await create({
      supplierPid,
      supplierIdRef: 'SUP-1',
      name: 'Akku-Bohrschrauber',
      ean: '4006381333115',
      manufacturerPid: 'M-77',
    });
    expect(created).toMatchObject({
      supplierPid,
      supplierIdRef: 'SUP-1',
      name: 'Akku-Bohrschrauber',
      ean: '4006381333115',
      manufacturerPid: 'M-77',
    });
    expect(await get(created.id)).toEqual(created);
    // name without language is the short text of the workspace default language (deu)
    const text = await call('GET', `/api/product/${created.id}/texts/short`);
    expect(text.body.data).toEqual([{ lang: 'deu', value: 'Akku-Bohrschrauber' }]);
  });

  it('stores name as the short text of the language sent (ger is deu) and answers in that language', async () => {
    const created = await create({ name: 'Cordless drill', language: 'ENG' });
    expect(created.name).toBe('Cordless drill');
    const texts = await call('GET', `/api/product/${created.id}/texts/short`);
    expect(texts.body.data).toEqual([{ lang: 'eng', value: 'Cordless drill' }]);
    const ger = await create({ name: 'Bohrer', language: 'ger' });
    expect((await call('GET', `/api/product/${ger.id}/texts/short`)).body.data).toEqual([
      { lang: 'deu', value: 'Bohrer' },
    ]);
  });

  it('requires supplierPid of 1 to 128 characters', async () => {
    const missing = await call('POST', '/api/product', { name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, error: 'supplierPid is required' });
    expect((await call('POST', '/api/product', { supplierPid: '' })).status).toBe(400);
    const long = await call('POST', '/api/product', { supplierPid: 'x'.repeat(129) });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('supplierPid');
    const max = `${pid()}-`.padEnd(128, 'y');
    expect((await call('POST', '/api/product', { supplierPid: max })).status).toBe(201);
    // 128 characters outside the BMP are 128 characters, not 256
    const emoji = `${pid()}`.padEnd(100, 'z') + '😀'.repeat(28);
    expect((await call('POST', '/api/product', { supplierPid: emoji })).status).toBe(201);
    // Half a surrogate pair would be stored as U+FFFD: two different keys would read back alike.
    for (const half of ['\ud801', '\ud802']) {
      const lone = await call('POST', '/api/product', {
        supplierPid: `SUR-${pid()}${half}`,
        name: `n${half}`,
      });
      expect(lone.status).toBe(400);
      expect(lone.body.error).toMatch(/^supplierPid must not contain half of a surrogate pair/);
    }
  });

  it('refuses wrong types, unknown fields, bad languages and malformed bodies with 400', async () => {
    const bodies: unknown[] = [
      { supplierPid: 12 },
      { supplierPid: pid(), ean: 4006381333115 },
      { supplierPid: pid(), name: ['x'] },
      { supplierPid: pid(), masterProductId: '1' },
      { supplierPid: pid(), masterProductId: 0 },
      { supplierPid: pid(), masterProductId: -3 },
      { supplierPid: pid(), masterProductId: 1.5 },
      { supplierPid: pid(), colour: 'red' },
      { supplierPid: pid(), language: 'xx' },
      { supplierPid: pid(), name: 'x', language: 'german' },
      [{ supplierPid: pid() }],
      'text',
    ];
    for (const body of bodies) {
      const res = await call('POST', '/api/product', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error).toBe('string');
    }
    const malformed = await server.request('POST', '/api/product', {
      token,
      rawBody: '{"supplierPid":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const unknown = await call('POST', '/api/product', { supplierPid: pid(), colour: 'red' });
    expect(unknown.body.error).toBe("Unknown field 'colour'");
  });

  it('answers 409 for a taken supplierPid', async () => {
    const first = await create();
    const res = await call('POST', '/api/product', { supplierPid: first.supplierPid });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: `supplierPid '${first.supplierPid}' is already taken`,
      code: 'SUPPLIER_PID_TAKEN',
    });
  });

  it('creates a variant with masterProductId; 404 for an unknown master, 400 for a variant as master', async () => {
    const main = await create();
    const variant = await create({ masterProductId: main.id });
    expect(variant).toMatchObject({ masterProduct: false, masterProductId: main.id, variantCount: 0 });
    expect((await get(main.id)).variantCount).toBe(1);

    const unknown = await call('POST', '/api/product', { supplierPid: pid(), masterProductId: 987654 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'Product 987654 not found', code: 'PRODUCT_NOT_FOUND' });

    const nested = await call('POST', '/api/product', { supplierPid: pid(), masterProductId: variant.id });
    expect(nested.status).toBe(400);
    expect(nested.body.code).toBe('VARIANT_OF_VARIANT');
    expect((await get(variant.id)).variantCount).toBe(0);
  });
});

describe('GET /api/product', () => {
  it('lists main products by default and variants with all=true, ordered by id', async () => {
    const main = await create();
    const variant = await create({ masterProductId: main.id });
    const other = await create();

    const mains = await call<Product[]>('GET', '/api/product');
    expect(mains.status).toBe(200);
    const mainIds = mains.body.data!.map((p) => p.id);
    expect(mainIds).toContain(main.id);
    expect(mainIds).toContain(other.id);
    expect(mainIds).not.toContain(variant.id);
    expect(mains.body.data!.every((p) => p.masterProduct && p.masterProductId === null)).toBe(true);
    expect(mainIds).toEqual([...mainIds].sort((a, b) => a - b));

    const all = await call<Product[]>('GET', '/api/product?all=true');
    const allIds = all.body.data!.map((p) => p.id);
    expect(allIds).toEqual(expect.arrayContaining([main.id, variant.id, other.id]));
    expect(allIds).toEqual([...allIds].sort((a, b) => a - b));
    expect(all.body.data!.find((p) => p.id === main.id)).toEqual(await get(main.id));
    expect(all.body.data!.find((p) => p.id === variant.id)).toEqual(await get(variant.id));

    const explicitFalse = await call<Product[]>('GET', '/api/product?all=false');
    expect(explicitFalse.body.data!.map((p) => p.id)).toEqual(
      mainIds
        .filter((id) => id <= other.id)
        .concat(explicitFalse.body.data!.map((p) => p.id).filter((id) => id > other.id)),
    );
    expect(explicitFalse.body.data!.map((p) => p.id)).not.toContain(variant.id);
  });

  it('refuses bad query parameters', async () => {
    expect((await call('GET', '/api/product?all=maybe')).status).toBe(400);
    expect((await call('GET', '/api/product?colour=red')).status).toBe(400);
    expect((await call('GET', '/api/product?lang=xx')).status).toBe(400);
  });
});

describe('GET /api/product/{id}', () => {
  it('answers 400 for ids that are not positive safe integers, never 500', async () => {
    for (const id of [
      'abc',
      '-1',
      '0',
      '1.5',
      '99999999999999999999',
      '9007199254740992',
      '%20',
      '-0.5',
      'null',
      '1e3',
      '0x10',
      '+5',
      ' 5',
    ]) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['GET', '/variants'],
        ['POST', '/variants'],
        ['GET', '/texts/short'],
        ['GET', '/features'],
      ] as const) {
        const body = method === 'PUT' || method === 'POST' ? { supplierPid: pid() } : undefined;
        const res = await call(method, `/api/product/${id}${suffix}`, body);
        expect(res.status, `${method} ${id}${suffix}`).toBe(400);
        expect(res.body.success).toBe(false);
      }
    }
  });

  it('answers 404 with PRODUCT_NOT_FOUND for an unknown product on every product path', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/api/product/424242'],
      ['PUT', '/api/product/424242', { ean: '1' }],
      ['DELETE', '/api/product/424242'],
      ['GET', '/api/product/424242/variants'],
      ['POST', '/api/product/424242/variants', { supplierPid: pid() }],
      ['GET', '/api/product/424242/texts/short'],
      ['GET', '/api/product/424242/texts/long/deu'],
      ['PUT', '/api/product/424242/texts/long/deu', { value: 'x' }],
      ['DELETE', '/api/product/424242/texts/short/deu'],
      ['GET', '/api/product/424242/features'],
      ['GET', '/api/product/424242/features/x'],
      ['GET', '/api/product/424242/features/x/deu'],
      ['PUT', '/api/product/424242/features/x', { values: [] }],
      ['PUT', '/api/product/424242/features/x/deu', { value: 'v' }],
      ['DELETE', '/api/product/424242/features/x'],
      ['DELETE', '/api/product/424242/features/x/deu'],
    ];
    for (const [method, path, body] of paths) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: 'Product 424242 not found',
        code: 'PRODUCT_NOT_FOUND',
      });
    }
  });
});

describe('ProductDto.name', () => {
  it('is the short text of ?lang=, else of the default language, else the first by language code, else ""', async () => {
    const p = await create();
    expect((await get(p.id)).name).toBe('');
    await call('PUT', `/api/product/${p.id}/texts/short/fra`, { value: 'Perceuse' });
    await call('PUT', `/api/product/${p.id}/texts/short/eng`, { value: 'Drill' });
    // no deu text: the first by language code (eng < fra)
    expect((await get(p.id)).name).toBe('Drill');
    expect((await get(p.id, '?lang=fra')).name).toBe('Perceuse');
    expect((await get(p.id, '?lang=fre')).name).toBe('Perceuse');
    // a language without text falls back like the default
    expect((await get(p.id, '?lang=ita')).name).toBe('Drill');
    await call('PUT', `/api/product/${p.id}/texts/short/deu`, { value: 'Bohrer' });
    expect((await get(p.id)).name).toBe('Bohrer');
    expect((await get(p.id, '?lang=eng')).name).toBe('Drill');
    const list = await call<Product[]>('GET', '/api/product?lang=fra');
    expect(list.body.data!.find((x) => x.id === p.id)!.name).toBe('Perceuse');
    const badLang = await call('GET', `/api/product/${p.id}?lang=zz1`);
    expect(badLang.status).toBe(400);
    expect(badLang.body.code).toBe('INVALID_LANGUAGE');
  });

  it('names variants in the list of variants by the same rules', async () => {
    const main = await create();
    const variant = (await call<Product>('POST', `/api/product/${main.id}/variants`, { supplierPid: pid() }))
      .body.data!;
    await call('PUT', `/api/product/${variant.id}/texts/short/fra`, { value: 'Perceuse' });
    await call('PUT', `/api/product/${variant.id}/texts/short/deu`, { value: 'Bohrer' });
    const names = async (query: string) =>
      (await call<Product[]>('GET', `/api/product/${main.id}/variants${query}`)).body.data!.map(
        (v) => v.name,
      );
    expect(await names('')).toEqual(['Bohrer']);
    expect(await names('?lang=fre')).toEqual(['Perceuse']);
    expect(await names('?lang=ita')).toEqual(['Bohrer']);
    expect((await call('GET', `/api/product/${main.id}/variants?lang=zz1`)).status).toBe(400);
  });

  it('follows `language` on create and update, also without a name', async () => {
    const p = await create({ name: 'Bohrer' });
    await call('PUT', `/api/product/${p.id}/texts/short/eng`, { value: 'Drill' });
    const updated = await call<Product>('PUT', `/api/product/${p.id}`, { language: 'eng' });
    expect(updated.status).toBe(200);
    expect(updated.body.data!.name).toBe('Drill');
    const renamed = await call<Product>('PUT', `/api/product/${p.id}`, { name: 'Perceuse', language: 'fra' });
    expect(renamed.body.data!.name).toBe('Perceuse');
    expect((await get(p.id)).name).toBe('Bohrer');
  });
});

describe('PUT /api/product/{id}', () => {
  it('changes only the fields sent', async () => {
    const p = await create({ supplierIdRef: 'S', name: 'Alt', ean: '111', manufacturerPid: 'M' });
    const res = await call<Product>('PUT', `/api/product/${p.id}`, { ean: '222' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...p, ean: '222' });
    const newPid = pid();
    const res2 = await call<Product>('PUT', `/api/product/${p.id}`, { supplierPid: newPid, name: 'Neu' });
    expect(res2.body.data).toEqual({ ...p, ean: '222', supplierPid: newPid, name: 'Neu' });
    expect(await get(p.id)).toEqual(res2.body.data);
    const empty = await call<Product>('PUT', `/api/product/${p.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(res2.body.data);
  });

  it('clears optional fields with null', async () => {
    const p = await create({ supplierIdRef: 'S', ean: '111', manufacturerPid: 'M' });
    const res = await call<Product>('PUT', `/api/product/${p.id}`, {
      supplierIdRef: null,
      ean: null,
      manufacturerPid: null,
    });
    expect(res.body.data).toMatchObject({ supplierIdRef: null, ean: null, manufacturerPid: null });
    expect((await call('PUT', `/api/product/${p.id}`, { supplierPid: null })).status).toBe(400);
  });

  it('refuses masterProductId, unknown fields and wrong types with 400', async () => {
    const main = await create();
    const p = await create();
    for (const body of [
      { masterProductId: main.id },
      { masterProductId: null },
      { unknown: 1 },
      { ean: 5 },
      { supplierPid: '' },
      { name: 5 },
      { language: 'xyz' },
    ]) {
      const res = await call('PUT', `/api/product/${p.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await get(p.id)).toEqual(p);
  });

  it('answers 409 when the supplierPid is taken by another product, and 200 for its own', async () => {
    const a = await create();
    const b = await create({ name: 'B' });
    const res = await call('PUT', `/api/product/${b.id}`, { supplierPid: a.supplierPid, name: 'changed' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SUPPLIER_PID_TAKEN');
    expect(await get(b.id)).toEqual(b);
    const same = await call('PUT', `/api/product/${b.id}`, { supplierPid: b.supplierPid });
    expect(same.status).toBe(200);
  });
});

describe('DELETE /api/product/{id}', () => {
  it('deletes a product: 200 without data, then 404', async () => {
    const p = await create({ name: 'weg' });
    const res = await call('DELETE', `/api/product/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await call('GET', `/api/product/${p.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/product/${p.id}`)).status).toBe(404);
    // its supplierPid is free again
    expect((await call('POST', '/api/product', { supplierPid: p.supplierPid })).status).toBe(201);
  });

  it('deletes the variants of a main product, with their texts and features', async () => {
    const main = await create();
    const v1 = await create({ masterProductId: main.id, name: 'v1' });
    const v2 = await create({ masterProductId: main.id });
    await call('PUT', `/api/product/${v2.id}/features/F1`, { values: [{ lang: 'deu', value: '1' }] });
    expect((await call('DELETE', `/api/product/${main.id}`)).status).toBe(200);
    for (const id of [main.id, v1.id, v2.id])
      expect((await call('GET', `/api/product/${id}`)).status).toBe(404);
    expect((await call('GET', `/api/product/${v2.id}/features`)).status).toBe(404);
    const all = await call<Product[]>('GET', '/api/product?all=true');
    expect(all.body.data!.map((p) => p.id)).not.toContain(v1.id);
    // the supplierPids of the variants are free again
    expect((await call('POST', '/api/product', { supplierPid: v1.supplierPid })).status).toBe(201);
  });

  it('deleting a variant keeps its main product and lowers variantCount', async () => {
    const main = await create();
    const v1 = await create({ masterProductId: main.id });
    const v2 = await create({ masterProductId: main.id });
    expect((await get(main.id)).variantCount).toBe(2);
    expect((await call('DELETE', `/api/product/${v1.id}`)).status).toBe(200);
    expect((await get(main.id)).variantCount).toBe(1);
    const variants = await call<Product[]>('GET', `/api/product/${main.id}/variants`);
    expect(variants.body.data!.map((p) => p.id)).toEqual([v2.id]);
  });
});

describe('variants', () => {
  it('POST /api/product/{id}/variants creates a linked variant: 201 with Location', async () => {
    const main = await create();
    const res = await call<Product>('POST', `/api/product/${main.id}/variants`, {
      supplierPid: pid('V'),
      name: 'Variante',
      ean: '42',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/product/${res.body.data!.id}`);
    expect(res.body.data).toMatchObject({
      masterProduct: false,
      masterProductId: main.id,
      variantCount: 0,
      name: 'Variante',
      ean: '42',
    });
    expect(await get(main.id)).toMatchObject({ masterProduct: true, masterProductId: null, variantCount: 1 });
  });

  it('GET /api/product/{id}/variants lists the variants in id order; a variant has none', async () => {
    const main = await create();
    const other = await create();
    const v = [];
    for (let i = 0; i < 3; i++)
      v.push(
        (await call<Product>('POST', `/api/product/${main.id}/variants`, { supplierPid: pid() })).body.data!,
      );
    await call('POST', `/api/product/${other.id}/variants`, { supplierPid: pid() });
    const res = await call<Product[]>('GET', `/api/product/${main.id}/variants`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(v.map((x) => ({ ...x })));
    expect((await get(main.id)).variantCount).toBe(3);
    const none = await call('GET', `/api/product/${v[0]!.id}/variants`);
    expect(none.body).toEqual({ success: true, data: [] });
    expect((await call('GET', `/api/product/${other.id}/variants`)).body.data).toHaveLength(1);
  });

  it('refuses masterProductId in the body, variants of variants, and unknown main products', async () => {
    const main = await create();
    const withMaster = await call('POST', `/api/product/${main.id}/variants`, {
      supplierPid: pid(),
      masterProductId: main.id,
    });
    expect(withMaster.status).toBe(400);
    expect(withMaster.body.error).toContain('masterProductId');
    const variant = (await call<Product>('POST', `/api/product/${main.id}/variants`, { supplierPid: pid() }))
      .body.data!;
    const nested = await call('POST', `/api/product/${variant.id}/variants`, { supplierPid: pid() });
    expect(nested.status).toBe(400);
    expect(nested.body.code).toBe('VARIANT_OF_VARIANT');
    const missing = await call('POST', '/api/product/555555/variants', { supplierPid: pid() });
    expect(missing.status).toBe(404);
    expect((await call('POST', `/api/product/${main.id}/variants`, {})).status).toBe(400);
    expect((await get(main.id)).variantCount).toBe(1);
  });

  it('answers 409 for a variant with a taken supplierPid', async () => {
    const main = await create();
    const res = await call('POST', `/api/product/${main.id}/variants`, { supplierPid: main.supplierPid });
    expect(res.status).toBe(409);
    expect((await get(main.id)).variantCount).toBe(0);
  });
});

describe('rights', () => {
  it('lets a VIEWER read but not write (403), and an EDITOR write', async () => {
    await server.addUser('viewer1', 'VIEWER');
    await server.addUser('editor1', 'EDITOR');
    const viewer = await server.login('viewer1', 'viewer1-password');
    const editor = await server.login('editor1', 'editor1-password');
    const p = await create({ name: 'x' });
    await call('PUT', `/api/product/${p.id}/features/F`, { values: [{ lang: 'deu', value: '1' }] });
    for (const path of [
      '/api/product',
      `/api/product/${p.id}`,
      `/api/product/${p.id}/variants`,
      `/api/product/${p.id}/texts/short`,
      `/api/product/${p.id}/texts/short/deu`,
      `/api/product/${p.id}/texts/long`,
      `/api/product/${p.id}/features`,
      `/api/product/${p.id}/features/F`,
      `/api/product/${p.id}/features/F/deu`,
    ]) {
      expect((await call('GET', path, undefined, viewer)).status, path).toBe(200);
    }
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/api/product', { supplierPid: pid() }],
      ['PUT', `/api/product/${p.id}`, { ean: '1' }],
      ['POST', `/api/product/${p.id}/variants`, { supplierPid: pid() }],
      ['PUT', `/api/product/${p.id}/texts/short/deu`, { value: 'y' }],
      ['DELETE', `/api/product/${p.id}/texts/short/deu`],
      ['PUT', `/api/product/${p.id}/features/F`, { values: [] }],
      ['PUT', `/api/product/${p.id}/features/F/deu`, { value: '2' }],
      ['DELETE', `/api/product/${p.id}/features/F/deu`],
      ['DELETE', `/api/product/${p.id}/features/F`],
      ['DELETE', `/api/product/${p.id}`],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body, viewer);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await get(p.id)).toEqual(p);
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body, editor);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await server.request('GET', '/api/product');
    expect(res.status).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents every product, text and feature route with tags, summary, schemas and errors', async () => {
    const res = await server.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[];
            summary?: string;
            responses: Record<string, unknown>;
            requestBody?: {
              content: Record<string, { examples?: Record<string, unknown>; example?: unknown }>;
            };
          }
        >
      >;
    };
    const expected: Array<[string, string[]]> = [
      ['/api/product', ['get', 'post']],
      ['/api/product/{id}', ['get', 'put', 'delete']],
      ['/api/product/{id}/variants', ['get', 'post']],
      ['/api/product/{id}/texts/short', ['get']],
      ['/api/product/{id}/texts/short/{lang}', ['get', 'put', 'delete']],
      ['/api/product/{id}/texts/long', ['get']],
      ['/api/product/{id}/texts/long/{lang}', ['get', 'put', 'delete']],
      ['/api/product/{id}/features', ['get']],
      ['/api/product/{id}/features/{ftidref}', ['get', 'put', 'delete']],
      ['/api/product/{id}/features/{ftidref}/{lang}', ['get', 'put', 'delete']],
    ];
    for (const [path, methods] of expected) {
      for (const method of methods) {
        const op = doc.paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op!.tags!.length).toBeGreaterThan(0);
        expect(op!.summary).toBeTruthy();
        const errors =
          path === '/api/product' && method === 'get'
            ? ['400', '401', '403', '409']
            : ['400', '401', '403', '404', '409'];
        expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(errors));
        if (method !== 'get' && method !== 'delete') {
          const media = op!.requestBody!.content['application/json']!;
          // @fastify/swagger writes one example as `example`, several as `examples`
          const count = Object.keys(media.examples ?? {}).length + (media.example === undefined ? 0 : 1);
          expect(count, `${method} ${path} examples`).toBeGreaterThan(0);
        }
      }
    }
  });
});
