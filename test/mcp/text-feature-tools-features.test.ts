import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcp.js';
import {
  asToolError,
  fail,
  sessionPerFile,
  type McpSession as Session,
  type ToolError,
} from '../helpers/mcp-session.js';
import {
  ECLASS,
  enc,
  product,
  restFeatures,
  type Entry,
  type Feature,
} from './text-feature-tools.fixtures.js';

/** The feature tools set_feature and delete_feature, black box: every change checked through the REST feature endpoints. */

/** One application for the file: each test makes its own product and reads only its own. */
const { open, fresh } = sessionPerFile();

describe('set_feature', () => {
  it('adds a new ftidref with funit and values, as REST then reads it', async () => {
    const s = await open();
    const id = await product(s);
    const feature = await ok<Feature>(s.client, 'set_feature', {
      id,
      ftidref: ECLASS,
      funit: 'mm',
      values: [
        { lang: 'eng', value: '13' },
        { lang: 'ger', value: '13,0' },
      ],
    });
    expect(feature).toEqual({
      ftidref: ECLASS,
      funit: 'mm',
      names: [],
      values: [
        { lang: 'deu', value: '13,0' },
        { lang: 'eng', value: '13' },
      ],
    });
    const one = await s.rest<Feature>('GET', `/api/product/${id}/features/${enc(ECLASS)}`);
    expect(one.body.data).toEqual(feature);
    expect(await restFeatures(s, id)).toEqual([feature]);
    const value = await s.rest<Entry>('GET', `/api/product/${id}/features/${enc(ECLASS)}/deu`);
    expect(value.body.data).toEqual({ lang: 'deu', value: '13,0' });
  });

  it('is an upsert per language; funit only changes when sent', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_feature', {
      id,
      ftidref: 'F-UP',
      funit: 'kg',
      values: [
        { lang: 'deu', value: '1' },
        { lang: 'eng', value: '1' },
      ],
    });
    const upserted = await ok<Feature>(s.client, 'set_feature', {
      id,
      ftidref: 'F-UP',
      values: [
        { lang: 'eng', value: '2' },
        { lang: 'fra', value: '3' },
      ],
    });
    expect(upserted).toEqual({
      ftidref: 'F-UP',
      funit: 'kg',
      names: [],
      values: [
        { lang: 'deu', value: '1' },
        { lang: 'eng', value: '2' },
        { lang: 'fra', value: '3' },
      ],
    });
    expect(await restFeatures(s, id)).toEqual([upserted]);
    const unit = await ok<Feature>(s.client, 'set_feature', { id, ftidref: 'F-UP', funit: 'g', values: [] });
    expect(unit).toEqual({ ...upserted, funit: 'g' });
    expect(await restFeatures(s, id)).toEqual([unit]);
    // A second feature is added after the first (BMEcat keeps feature order).
    await ok(s.client, 'set_feature', { id, ftidref: 'A-SECOND', values: [{ lang: 'deu', value: 'x' }] });
    expect((await restFeatures(s, id)).map((f) => f.ftidref)).toEqual(['F-UP', 'A-SECOND']);
  });

  it('with funit null falls back to no unit for a new ftidref', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_feature', { id, ftidref: ECLASS, funit: 'mm', values: [] });
    const cleared = await ok<Feature>(s.client, 'set_feature', {
      id,
      ftidref: ECLASS,
      funit: null,
      values: [],
    });
    expect(cleared).toEqual({ ftidref: ECLASS, funit: null, names: [], values: [] });
    expect(await restFeatures(s, id)).toEqual([cleared]);
  });

  it("with funit null falls back to the definition's default unit (demo workspace)", async () => {
    // Its own application: the demo workspace of a first run holds the definitions with default units.
    const s = await fresh({ setup: 'first-run' });
    const list = await s.rest<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true');
    const drill = list.body.data!.find((p) => p.supplierPid === 'ABS-18-2AH')!;
    const capacity = '0173-1#02-AAC895#004';
    const own = await ok<Feature>(s.client, 'set_feature', {
      id: drill.id,
      ftidref: capacity,
      funit: 'mAh',
      values: [{ lang: 'eng', value: '2000' }],
    });
    expect(own).toMatchObject({ ftidref: capacity, funit: 'mAh' });
    expect(own.names).toEqual([
      { lang: 'deu', value: 'Akkukapazität' },
      { lang: 'eng', value: 'Battery capacity' },
    ]);
    expect(own.values).toEqual([
      { lang: 'deu', value: '2,0' },
      { lang: 'eng', value: '2000' },
    ]);
    const reset = await ok<Feature>(s.client, 'set_feature', {
      id: drill.id,
      ftidref: capacity,
      funit: null,
      values: [],
    });
    expect(reset).toEqual({ ...own, funit: 'Ah' });
    const rest = await s.rest<Feature>('GET', `/api/product/${drill.id}/features/${enc(capacity)}`);
    expect(rest.body.data).toEqual(reset);
  });

  it('answers as REST for a language named twice, a bad language and an unknown product', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_feature', { id, ftidref: 'F', values: [{ lang: 'deu', value: 'old' }] });
    const before = await restFeatures(s, id);
    const cases: [Record<string, unknown>, ToolError][] = [
      [
        {
          values: [
            { lang: 'deu', value: '1' },
            { lang: 'ger', value: '2' },
          ],
        },
        { error: 'values names language deu more than once', code: 'VALIDATION_FAILED', status: 400 },
      ],
      [
        { values: [{ lang: 'xx', value: '1' }] },
        {
          error: "values[0].lang 'xx' is not an ISO 639-2 language code (for example deu, eng, fra)",
          code: 'INVALID_LANGUAGE',
          status: 400,
        },
      ],
      [
        { funit: 'x'.repeat(129), values: [] },
        { error: 'funit must be at most 128 characters', code: 'VALIDATION_FAILED', status: 400 },
      ],
    ];
    for (const [body, expected] of cases) {
      const error = await fail(s.client, 'set_feature', { id, ftidref: 'F', ...body });
      expect(error).toEqual(expected);
      expect(error).toEqual(asToolError(await s.rest('PUT', `/api/product/${id}/features/F`, body)));
    }
    const unknown = await fail(s.client, 'set_feature', { id: 999_999, ftidref: 'F', values: [] });
    expect(unknown).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(unknown).toEqual(
      asToolError(await s.rest('PUT', '/api/product/999999/features/F', { values: [] })),
    );
    expect(await restFeatures(s, id)).toEqual(before);
  });
});

describe('delete_feature', () => {
  async function withFeatures(s: Session): Promise<number> {
    const id = await product(s);
    for (const ftidref of [ECLASS, 'OTHER']) {
      await ok(s.client, 'set_feature', {
        id,
        ftidref,
        funit: 'mm',
        values: [
          { lang: 'deu', value: 'd' },
          { lang: 'eng', value: 'e' },
        ],
      });
    }
    return id;
  }

  it('removes the whole feature with all its values; the other features stay', async () => {
    const s = await open();
    const id = await withFeatures(s);
    expect(await ok(s.client, 'delete_feature', { id, ftidref: ECLASS })).toEqual({
      id,
      ftidref: ECLASS,
      lang: null,
    });
    const gone = await s.rest('GET', `/api/product/${id}/features/${enc(ECLASS)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('FEATURE_NOT_FOUND');
    expect((await restFeatures(s, id)).map((f) => f.ftidref)).toEqual(['OTHER']);
  });

  it('with lang removes only the value of that language; the feature stays', async () => {
    const s = await open();
    const id = await withFeatures(s);
    expect(await ok(s.client, 'delete_feature', { id, ftidref: ECLASS, lang: 'eng' })).toEqual({
      id,
      ftidref: ECLASS,
      lang: 'eng',
    });
    const one = await s.rest<Feature>('GET', `/api/product/${id}/features/${enc(ECLASS)}`);
    expect(one.body.data).toEqual({
      ftidref: ECLASS,
      funit: 'mm',
      names: [],
      values: [{ lang: 'deu', value: 'd' }],
    });
    await ok(s.client, 'delete_feature', { id, ftidref: ECLASS, lang: 'ger' });
    const empty = await s.rest<Feature>('GET', `/api/product/${id}/features/${enc(ECLASS)}`);
    expect(empty.status).toBe(200);
    expect(empty.body.data!.values).toEqual([]);
    expect((await restFeatures(s, id)).find((f) => f.ftidref === 'OTHER')!.values).toHaveLength(2);
  });

  it('answers FEATURE_NOT_FOUND and FEATURE_VALUE_NOT_FOUND (404) as REST, and nothing changes', async () => {
    const s = await open();
    const id = await withFeatures(s);
    const before = await restFeatures(s, id);
    const feature = await fail(s.client, 'delete_feature', { id, ftidref: 'MISSING' });
    expect(feature).toEqual({
      error: `Product ${id} has no feature 'MISSING'`,
      code: 'FEATURE_NOT_FOUND',
      status: 404,
    });
    expect(feature).toEqual(asToolError(await s.rest('DELETE', `/api/product/${id}/features/MISSING`)));
    expect(await fail(s.client, 'delete_feature', { id, ftidref: 'MISSING', lang: 'deu' })).toEqual(feature);

    const value = await fail(s.client, 'delete_feature', { id, ftidref: ECLASS, lang: 'fra' });
    expect(value).toEqual({
      error: `Feature '${ECLASS}' of product ${id} has no value in language fra`,
      code: 'FEATURE_VALUE_NOT_FOUND',
      status: 404,
    });
    expect(value).toEqual(
      asToolError(await s.rest('DELETE', `/api/product/${id}/features/${enc(ECLASS)}/fra`)),
    );
    expect(await restFeatures(s, id)).toEqual(before);

    const product404 = await fail(s.client, 'delete_feature', { id: 999_999, ftidref: ECLASS });
    expect(product404).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
  });
});
