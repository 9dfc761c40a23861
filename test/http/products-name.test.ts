import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/** ProductDto.name over REST: the short text chosen by language, with its fallbacks. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

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
