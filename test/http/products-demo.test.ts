import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  supplierPid: string;
  name: string;
  ean: string | null;
  masterProduct: boolean;
  variantCount: number;
}
interface Feature {
  ftidref: string;
  funit: string | null;
  names: Array<{ lang: string }>;
  values: Array<{ lang: string }>;
}

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ setup: 'first-run' });
  token = await server.login();
});
afterAll(() => server.stop());

const get = async <T>(path: string) => {
  const res = await server.request<T>('GET', path, { token });
  expect(res.status, path).toBe(200);
  return res.body.data!;
};

describe('first-run demo catalogue', () => {
  it('holds 30 to 40 products, some main products with 2 to 4 variants', async () => {
    const all = await get<Product[]>('/api/product?all=true');
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.length).toBeLessThanOrEqual(40);
    const mains = await get<Product[]>('/api/product');
    const withVariants = mains.filter((p) => p.variantCount > 0);
    expect(withVariants.length).toBeGreaterThanOrEqual(5);
    expect(withVariants.every((p) => p.variantCount >= 2 && p.variantCount <= 4)).toBe(true);
    expect(mains.reduce((n, p) => n + p.variantCount, 0)).toBe(all.length - mains.length);
    expect(new Set(all.map((p) => p.ean)).size).toBe(all.length);
  });

  it('has short texts in deu and eng for every product, and long texts', async () => {
    const all = await get<Product[]>('/api/product?all=true');
    let withLong = 0;
    for (const p of all) {
      const short = await get<Array<{ lang: string; value: string }>>(`/api/product/${p.id}/texts/short`);
      expect(short.map((t) => t.lang)).toEqual(['deu', 'eng']);
      expect(short.every((t) => t.value.length > 0)).toBe(true);
      expect(p.name).toBe(short[0]!.value);
      if ((await get<unknown[]>(`/api/product/${p.id}/texts/long`)).length === 2) withLong++;
    }
    expect(withLong).toBeGreaterThanOrEqual(5);
    const english = await get<Product[]>('/api/product?lang=eng');
    expect(english.find((p) => p.supplierPid === 'ABS-18')!.name).toBe('Cordless drill/driver 18 V');
  });

  it('has features with ECLASS-like FT_IDREFs, names in deu and eng, and units', async () => {
    const all = await get<Product[]>('/api/product?all=true');
    let withUnit = 0;
    for (const p of all) {
      const features = await get<Feature[]>(`/api/product/${p.id}/features`);
      expect(features.length, p.supplierPid).toBeGreaterThan(0);
      for (const f of features) {
        expect(f.ftidref).toMatch(/^0173-1#02-[A-Z]{3}\d{3}#\d{3}$/);
        expect(f.names.map((n) => n.lang)).toEqual(['deu', 'eng']);
        expect(f.values.map((v) => v.lang)).toEqual(['deu', 'eng']);
        if (f.funit) withUnit++;
      }
    }
    expect(withUnit).toBeGreaterThan(20);
  });
});
