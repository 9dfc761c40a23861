import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/** Changing products over REST: PUT /api/product/{id}. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
