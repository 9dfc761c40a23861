import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/** Variants over REST: /api/product/{id}/variants. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
