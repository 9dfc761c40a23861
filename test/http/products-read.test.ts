import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/** Reading products over REST: the list and the paths of one product, with their errors. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
