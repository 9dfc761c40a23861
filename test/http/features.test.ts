import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface Entry {
  lang: string;
  value: string;
}
interface Feature {
  ftidref: string;
  funit: string | null;
  names: Entry[];
  values: Entry[];
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = () => `F-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });
const enc = encodeURIComponent;

async function product(): Promise<number> {
  const res = await call<{ id: number }>('POST', '/api/product', { supplierPid: pid() });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

const ECLASS = '0173-1#02-AAF040#004';
const TRICKY = [
  '0173-1#02-AAF040#004',
  'a/b',
  'dir/sub/../x',
  'with space',
  'dots.and.more.',
  '50% off?',
  'ä ö ü ß €',
  'x&y=z',
  '+plus+',
];
// Not addressable: '.' and '..' as a whole ftidref, because WHATWG URL parsers (fetch, browsers) resolve
// them as dot segments even when percent-encoded (%2E%2E); the server never sees them.

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('PUT /api/product/{id}/features/{ftidref}', () => {
  it('creates the feature (an unknown ftidref gets a definition without names) and answers the FeatureDto', async () => {
    const id = await product();
    const res = await call<Feature>('PUT', `/api/product/${id}/features/${enc(ECLASS)}`, {
      funit: 'mm',
      values: [
        { lang: 'eng', value: '13' },
        { lang: 'ger', value: '13,0' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        ftidref: ECLASS,
        funit: 'mm',
        names: [],
        values: [
          { lang: 'deu', value: '13,0' },
          { lang: 'eng', value: '13' },
        ],
      },
    });
    expect((await call('GET', `/api/product/${id}/features/${enc(ECLASS)}`)).body.data).toEqual(
      res.body.data,
    );
    expect((await call('GET', `/api/product/${id}/features`)).body.data).toEqual([res.body.data]);
  });

  it('is an upsert per language: named languages change, the others stay; funit only when sent', async () => {
    const id = await product();
    const path = `/api/product/${id}/features/F-UP`;
    await call('PUT', path, {
      funit: 'kg',
      values: [
        { lang: 'deu', value: '1' },
        { lang: 'eng', value: '1' },
      ],
    });
    const res = await call<Feature>('PUT', path, {
      values: [
        { lang: 'eng', value: '2' },
        { lang: 'fra', value: '3' },
      ],
    });
    expect(res.body.data).toEqual({
      ftidref: 'F-UP',
      funit: 'kg',
      names: [],
      values: [
        { lang: 'deu', value: '1' },
        { lang: 'eng', value: '2' },
        { lang: 'fra', value: '3' },
      ],
    });
    const unit = await call<Feature>('PUT', path, { funit: 'g', values: [] });
    expect(unit.body.data!.funit).toBe('g');
    expect(unit.body.data!.values).toHaveLength(3);
    const cleared = await call<Feature>('PUT', path, { funit: null, values: [] });
    expect(cleared.body.data!.funit).toBeNull();
    const same = await call<Feature>('PUT', path, { ftidref: 'F-UP', values: [{ lang: 'deu', value: '9' }] });
    expect(same.status).toBe(200);
    expect(same.body.data!.values[0]).toEqual({ lang: 'deu', value: '9' });
  });

  it('creates a feature with no values from an empty values array', async () => {
    const id = await product();
    const res = await call<Feature>('PUT', `/api/product/${id}/features/EMPTY`, { values: [] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ftidref: 'EMPTY', funit: null, names: [], values: [] });
  });

  it('validates the body: 400 for a different ftidref, missing or malformed values, bad languages', async () => {
    const id = await product();
    const path = `/api/product/${id}/features/${enc(ECLASS)}`;
    const bodies: unknown[] = [
      { ftidref: 'other', values: [] },
      { ftidref: `${ECLASS} `, values: [] },
      {},
      { funit: 'mm' },
      { values: 'x' },
      { values: { lang: 'deu', value: '1' } },
      { values: null },
      { values: [{ value: '1' }] },
      { values: [{ lang: 'deu' }] },
      { values: [{ lang: 'deu', value: 1 }] },
      { values: [{ lang: 'deu', value: null }] },
      { values: ['deu'] },
      { values: [{ lang: 'deu', value: '1', extra: true }] },
      { values: [{ lang: 'xx', value: '1' }] },
      { values: [], funit: 5 },
      { values: [], colour: 'red' },
      {
        values: [
          { lang: 'deu', value: '1' },
          { lang: 'ger', value: '2' },
        ],
      },
    ];
    for (const body of bodies) {
      const res = await call('PUT', path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const mismatch = await call('PUT', path, { ftidref: 'other', values: [] });
    expect(mismatch.body.code).toBe('FTIDREF_MISMATCH');
    expect((await call('GET', `/api/product/${id}/features`)).body.data).toEqual([]);
  });
});

describe('ftidref in the path', () => {
  it.each(TRICKY)('addresses %j percent-encoded, on every feature route', async (ftidref) => {
    const id = await product();
    const base = `/api/product/${id}/features/${enc(ftidref)}`;
    const put = await call<Feature>('PUT', base, { values: [{ lang: 'deu', value: 'a' }] });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data!.ftidref).toBe(ftidref);
    expect((await call('PUT', `${base}/eng`, { value: 'b' })).body.data).toEqual({ lang: 'eng', value: 'b' });
    expect((await call('GET', `${base}/eng`)).body.data).toEqual({ lang: 'eng', value: 'b' });
    expect((await call<Feature>('GET', base)).body.data).toEqual({
      ftidref,
      funit: null,
      names: [],
      values: [
        { lang: 'deu', value: 'a' },
        { lang: 'eng', value: 'b' },
      ],
    });
    expect((await call('DELETE', `${base}/deu`)).status).toBe(200);
    expect(
      (await call<Feature[]>('GET', `/api/product/${id}/features`)).body.data!.map((f) => f.ftidref),
    ).toEqual([ftidref]);
    expect((await call('DELETE', base)).status).toBe(200);
    expect((await call('GET', base)).status).toBe(404);
  });

  it('keeps ECLASS ids that differ only after # apart', async () => {
    const id = await product();
    await call('PUT', `/api/product/${id}/features/${enc('0173-1#02-AAF040#004')}`, {
      values: [{ lang: 'deu', value: 'v4' }],
    });
    await call('PUT', `/api/product/${id}/features/${enc('0173-1#02-AAF040#005')}`, {
      values: [{ lang: 'deu', value: 'v5' }],
    });
    await call('PUT', `/api/product/${id}/features/0173-1`, { values: [{ lang: 'deu', value: 'bare' }] });
    const list = await call<Feature[]>('GET', `/api/product/${id}/features`);
    expect(list.body.data!.map((f) => [f.ftidref, f.values[0]!.value])).toEqual([
      ['0173-1#02-AAF040#004', 'v4'],
      ['0173-1#02-AAF040#005', 'v5'],
      ['0173-1', 'bare'],
    ]);
  });

  it('answers 400 for an ftidref longer than 256 characters', async () => {
    const id = await product();
    const res = await call('PUT', `/api/product/${id}/features/${'x'.repeat(257)}`, { values: [] });
    expect(res.status).toBe(400);
    expect((await call('PUT', `/api/product/${id}/features/${'x'.repeat(256)}`, { values: [] })).status).toBe(
      200,
    );
  });
});

describe('reading and deleting features', () => {
  it('lists features in the order they were added, each with values ordered by language', async () => {
    const id = await product();
    for (const f of ['Z-last-alpha', 'A-first-alpha', 'M-middle']) {
      await call('PUT', `/api/product/${id}/features/${f}`, {
        values: [
          { lang: 'fra', value: f },
          { lang: 'deu', value: f },
        ],
      });
    }
    // updating an early feature does not move it
    await call('PUT', `/api/product/${id}/features/Z-last-alpha/eng`, { value: 'x' });
    const list = await call<Feature[]>('GET', `/api/product/${id}/features`);
    expect(list.body.data!.map((f) => f.ftidref)).toEqual(['Z-last-alpha', 'A-first-alpha', 'M-middle']);
    expect(list.body.data![0]!.values.map((v) => v.lang)).toEqual(['deu', 'eng', 'fra']);
    // a deleted and re-added feature goes to the end
    await call('DELETE', `/api/product/${id}/features/Z-last-alpha`);
    await call('PUT', `/api/product/${id}/features/Z-last-alpha`, { values: [] });
    const again = await call<Feature[]>('GET', `/api/product/${id}/features`);
    expect(again.body.data!.map((f) => f.ftidref)).toEqual(['A-first-alpha', 'M-middle', 'Z-last-alpha']);
  });

  it('PUT and GET of one language use TextEntryDto; missing feature or value: 404', async () => {
    const id = await product();
    const put = await call('PUT', `/api/product/${id}/features/ONE/fre`, { value: 'rouge' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ success: true, data: { lang: 'fra', value: 'rouge' } });
    expect((await call('GET', `/api/product/${id}/features/ONE/fra`)).body.data).toEqual({
      lang: 'fra',
      value: 'rouge',
    });
    const missingValue = await call('GET', `/api/product/${id}/features/ONE/deu`);
    expect(missingValue.status).toBe(404);
    expect(missingValue.body.code).toBe('FEATURE_VALUE_NOT_FOUND');
    const missingFeature = await call('GET', `/api/product/${id}/features/NONE/deu`);
    expect(missingFeature.status).toBe(404);
    expect(missingFeature.body).toEqual({
      success: false,
      error: `Product ${id} has no feature 'NONE'`,
      code: 'FEATURE_NOT_FOUND',
    });
    expect((await call('GET', `/api/product/${id}/features/NONE`)).body.code).toBe('FEATURE_NOT_FOUND');
    expect((await call('PUT', `/api/product/${id}/features/ONE/xx`, { value: 'v' })).status).toBe(400);
    expect((await call('GET', `/api/product/${id}/features/ONE/xx`)).status).toBe(400);
    expect((await call('PUT', `/api/product/${id}/features/ONE/deu`, { value: 1 })).status).toBe(400);
    expect((await call('PUT', `/api/product/${id}/features/ONE/deu`, { value: 'v', x: 1 })).status).toBe(400);
  });

  it('a feature whose last value was deleted stays with no values until deleted', async () => {
    const id = await product();
    await call('PUT', `/api/product/${id}/features/KEEP`, {
      funit: 'mm',
      values: [{ lang: 'deu', value: '1' }],
    });
    const del = await call('DELETE', `/api/product/${id}/features/KEEP/deu`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await call('GET', `/api/product/${id}/features/KEEP`)).body.data).toEqual({
      ftidref: 'KEEP',
      funit: 'mm',
      names: [],
      values: [],
    });
    const again = await call('DELETE', `/api/product/${id}/features/KEEP/deu`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('FEATURE_VALUE_NOT_FOUND');
    expect((await call('DELETE', `/api/product/${id}/features/KEEP`)).status).toBe(200);
    expect((await call('GET', `/api/product/${id}/features`)).body.data).toEqual([]);
    const gone = await call('DELETE', `/api/product/${id}/features/KEEP`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('FEATURE_NOT_FOUND');
    expect((await call('DELETE', `/api/product/${id}/features/KEEP/deu`)).body.code).toBe(
      'FEATURE_NOT_FOUND',
    );
  });

  it('features of one product do not leak into another', async () => {
    const a = await product();
    const b = await product();
    await call('PUT', `/api/product/${a}/features/SHARED`, {
      funit: 'V',
      values: [{ lang: 'deu', value: 'a' }],
    });
    await call('PUT', `/api/product/${b}/features/SHARED`, { values: [{ lang: 'eng', value: 'b' }] });
    expect((await call<Feature>('GET', `/api/product/${a}/features/SHARED`)).body.data).toEqual({
      ftidref: 'SHARED',
      funit: 'V',
      names: [],
      values: [{ lang: 'deu', value: 'a' }],
    });
    expect((await call<Feature>('GET', `/api/product/${b}/features/SHARED`)).body.data).toEqual({
      ftidref: 'SHARED',
      funit: null,
      names: [],
      values: [{ lang: 'eng', value: 'b' }],
    });
    await call('DELETE', `/api/product/${a}/features/SHARED`);
    expect((await call('GET', `/api/product/${b}/features/SHARED`)).status).toBe(200);
  });
});

describe('feature definitions (demo workspace)', () => {
  it('FeatureDto.names lists the names of the definition; funit falls back to its default unit', async () => {
    const demo = await startServer({ setup: 'first-run' });
    try {
      const demoToken = await demo.login();
      const list = await demo.request<Array<{ id: number; supplierPid: string }>>(
        'GET',
        '/api/product?all=true',
        {
          token: demoToken,
        },
      );
      const drill = list.body.data!.find((p) => p.supplierPid === 'ABS-18-2AH')!;
      const features = await demo.request<Feature[]>('GET', `/api/product/${drill.id}/features`, {
        token: demoToken,
      });
      expect(features.body.data).toEqual([
        {
          ftidref: '0173-1#02-AAC895#004',
          funit: 'Ah',
          names: [
            { lang: 'deu', value: 'Akkukapazität' },
            { lang: 'eng', value: 'Battery capacity' },
          ],
          values: [
            { lang: 'deu', value: '2,0' },
            { lang: 'eng', value: '2.0' },
          ],
        },
      ]);
      // a product's own unit replaces the default; null falls back to it
      const path = `/api/product/${drill.id}/features/${enc('0173-1#02-AAC895#004')}`;
      const mah = await demo.request<Feature>('PUT', path, {
        token: demoToken,
        body: { funit: 'mAh', values: [] },
      });
      expect(mah.body.data!.funit).toBe('mAh');
      expect(mah.body.data!.names).toHaveLength(2);
      const reset = await demo.request<Feature>('PUT', path, {
        token: demoToken,
        body: { funit: null, values: [] },
      });
      expect(reset.body.data!.funit).toBe('Ah');
    } finally {
      await demo.stop();
    }
  });
});

describe('property: feature values round-trip unchanged', () => {
  it('for arbitrary unicode values and ftidrefs', async () => {
    const id = await product();
    const text = fc.string({ unit: 'binary', maxLength: 200 });
    const ftidref = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 40 })
      .filter((s) => s !== '.' && s !== '..');
    await fc.assert(
      fc.asyncProperty(ftidref, text, text, async (ref, deu, eng) => {
        const base = `/api/product/${id}/features/${enc(ref)}`;
        const put = await call<Feature>('PUT', base, {
          values: [
            { lang: 'deu', value: deu },
            { lang: 'eng', value: eng },
          ],
        });
        if ([ref, deu, eng].some((s) => s.includes('\u0000'))) {
          // U+0000 is refused on every backend, and the refused request stores nothing.
          expect(put.status, put.text).toBe(400);
          expect(put.body.error).toMatch(/must not contain the character U\+0000$/);
          expect((await call<Feature[]>('GET', `/api/product/${id}/features`)).body.data).toEqual([]);
          return;
        }
        expect(put.status, put.text).toBe(200);
        expect(put.body.data!.ftidref).toBe(ref);
        expect(put.body.data!.values).toEqual([
          { lang: 'deu', value: deu },
          { lang: 'eng', value: eng },
        ]);
        expect((await call('GET', `${base}/deu`)).body.data).toEqual({ lang: 'deu', value: deu });
        expect((await call('PUT', `${base}/fra`, { value: eng })).body.data).toEqual({
          lang: 'fra',
          value: eng,
        });
        const one = await call<Feature>('GET', base);
        expect(one.body.data!.values).toEqual([
          { lang: 'deu', value: deu },
          { lang: 'eng', value: eng },
          { lang: 'fra', value: eng },
        ]);
        expect((await call('DELETE', base)).status).toBe(200);
      }),
      { numRuns: 50 },
    );
  });
});
