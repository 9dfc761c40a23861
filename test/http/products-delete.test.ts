import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { productRest, type Product } from './products.fixtures.js';

/** Deleting products over REST: DELETE /api/product/{id}, with its variants. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
