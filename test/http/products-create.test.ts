import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/** Creating products over REST: POST /api/product, its fields, validation and conflicts. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
        createdAt: file.server.clock.now().toISOString(),
        updatedAt: file.server.clock.now().toISOString(),
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
    const malformed = await file.server.request('POST', '/api/product', {
      token: file.token,
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
