import { afterEach, describe, expect, it } from 'vitest';
import { call, connectHttp, ok } from '../helpers/mcp.js';
import {
  asToolError,
  fail,
  openMcpSession,
  type McpSession as Session,
  type ToolError,
} from '../helpers/mcp-session.js';
import type { StartOptions } from '../helpers/server.js';

/**
 * The text and feature tools of the agent interface, black box: a real server, products made
 * through REST, every change checked through the REST text and feature endpoints, every error
 * checked against what REST answers for the same mistake.
 */

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

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** One fresh application per test. */
function open(setup: StartOptions['setup'] = 'workspace'): Promise<Session> {
  return openMcpSession(cleanups, { setup });
}

let pidCounter = 0;

/** A product without any text. */
async function product(s: Session): Promise<number> {
  pidCounter += 1;
  const res = await s.rest<{ id: number }>('POST', '/api/product', { supplierPid: `TF-${pidCounter}` });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

async function restTexts(s: Session, id: number, kind: 'short' | 'long'): Promise<Entry[]> {
  const res = await s.rest<Entry[]>('GET', `/api/product/${id}/texts/${kind}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

async function restFeatures(s: Session, id: number): Promise<Feature[]> {
  const res = await s.rest<Feature[]>('GET', `/api/product/${id}/features`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

const enc = encodeURIComponent;
const ECLASS = '0173-1#02-AAF040#004';

describe('set_texts', () => {
  it('sets several languages at once and answers all texts of that kind, as REST reads them', async () => {
    const s = await open();
    const id = await product(s);
    const answer = await ok(s.client, 'set_texts', {
      id,
      kind: 'short',
      texts: [
        { lang: 'fra', value: 'Perceuse sans fil' },
        { lang: 'ger', value: 'Akku-Bohrschrauber' },
        { lang: 'ENG', value: 'Cordless drill' },
      ],
    });
    const expected = [
      { lang: 'deu', value: 'Akku-Bohrschrauber' },
      { lang: 'eng', value: 'Cordless drill' },
      { lang: 'fra', value: 'Perceuse sans fil' },
    ];
    expect(answer).toEqual({ id, kind: 'short', texts: expected });
    expect(await restTexts(s, id, 'short')).toEqual(expected);
    expect(await restTexts(s, id, 'long')).toEqual([]);
    const one = await s.rest<Entry>('GET', `/api/product/${id}/texts/short/eng`);
    expect(one.body.data).toEqual({ lang: 'eng', value: 'Cordless drill' });
    // The short text in the default language is the product's name.
    const got = await s.rest<{ name: string }>('GET', `/api/product/${id}`);
    expect(got.body.data!.name).toBe('Akku-Bohrschrauber');
  });

  it("touches the product's updatedAt, as a REST text write does; a refused call does not", async () => {
    const s = await open();
    const id = await product(s);
    const updatedAt = async () =>
      (await s.rest<{ updatedAt: string }>('GET', `/api/product/${id}`)).body.data!.updatedAt;
    s.server.clock.advance(60_000);
    await ok(s.client, 'set_texts', { id, kind: 'long', texts: [{ lang: 'deu', value: 'x' }] });
    const touched = s.server.clock.now().toISOString();
    expect(await updatedAt()).toBe(touched);
    s.server.clock.advance(60_000);
    await fail(s.client, 'set_texts', {
      id,
      kind: 'long',
      texts: [
        { lang: 'eng', value: 'y' },
        { lang: 'eng', value: 'z' },
      ],
    });
    expect(await updatedAt()).toBe(touched);
  });

  it('is an upsert: the languages named change, the others keep their text', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_texts', {
      id,
      kind: 'long',
      texts: [
        { lang: 'deu', value: 'eins' },
        { lang: 'eng', value: 'one' },
      ],
    });
    expect((await s.rest('PUT', `/api/product/${id}/texts/long/ita`, { value: 'uno' })).status).toBe(200);
    const answer = await ok(s.client, 'set_texts', {
      id,
      kind: 'long',
      texts: [
        { lang: 'eng', value: 'One' },
        { lang: 'fra', value: 'un' },
      ],
    });
    const expected = [
      { lang: 'deu', value: 'eins' },
      { lang: 'eng', value: 'One' },
      { lang: 'fra', value: 'un' },
      { lang: 'ita', value: 'uno' },
    ];
    expect(answer).toEqual({ id, kind: 'long', texts: expected });
    expect(await restTexts(s, id, 'long')).toEqual(expected);
    expect(await ok(s.client, 'set_texts', { id, kind: 'long', texts: [] })).toEqual(answer);
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  it('refuses a language named twice (ger and deu) with VALIDATION_FAILED and writes nothing', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_texts', { id, kind: 'short', texts: [{ lang: 'deu', value: 'alt' }] });
    const error = await fail(s.client, 'set_texts', {
      id,
      kind: 'short',
      texts: [
        { lang: 'eng', value: 'new' },
        { lang: 'ger', value: 'neu' },
        { lang: 'deu', value: 'neuer' },
      ],
    });
    expect(error).toEqual({
      error: 'texts names language deu more than once',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(await restTexts(s, id, 'short')).toEqual([{ lang: 'deu', value: 'alt' }]);
  });

  it('refuses a language that is not ISO 639-2 with INVALID_LANGUAGE (400) and writes nothing', async () => {
    const s = await open();
    const id = await product(s);
    for (const lang of ['xx', 'xxx', 'german', 'de']) {
      const error = await fail(s.client, 'set_texts', {
        id,
        kind: 'short',
        texts: [
          { lang: 'eng', value: 'ok' },
          { lang, value: 'bad' },
        ],
      });
      expect(error).toEqual({
        error: `texts[1].lang '${lang}' is not an ISO 639-2 language code (for example deu, eng, fra)`,
        code: 'INVALID_LANGUAGE',
        status: 400,
      });
    }
    // The same code and status as REST for the same language.
    const rest = asToolError(await s.rest('PUT', `/api/product/${id}/texts/short/xx`, { value: 'bad' }));
    expect(rest).toMatchObject({ code: 'INVALID_LANGUAGE', status: 400 });
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  it('answers PRODUCT_NOT_FOUND (404) for an unknown product, as REST, and writes nothing', async () => {
    const s = await open();
    const id = await product(s);
    const error = await fail(s.client, 'set_texts', {
      id: 999_999,
      kind: 'short',
      texts: [{ lang: 'deu', value: 'x' }],
    });
    expect(error).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(error).toEqual(
      asToolError(await s.rest('PUT', '/api/product/999999/texts/short/deu', { value: 'x' })),
    );
    expect(await fail(s.client, 'set_texts', { id: 999_999, kind: 'long', texts: [] })).toEqual(error);
    const products = await s.rest<{ id: number }[]>('GET', '/api/product?all=true');
    expect(products.body.data!.map((p) => p.id)).toEqual([id]);
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  it('keeps values byte for byte: markup, white space, unicode, empty (kind long)', async () => {
    const s = await open();
    const id = await product(s);
    const values = {
      deu: '<p onclick="x()">Bohrer &amp; <b>Zubehör</b></p>\n<script>alert(1)</script>',
      eng: '  padded  \n\t\r\n',
      fra: 'Ünïcödé 😀 👩‍👩‍👧 ∑ 漢字 \u0001 \u200b e\u0301',
      ita: '',
      spa: '<![CDATA[ x ]]> &lt;not decoded&gt; \\u00e4',
      nld: 'ab'.repeat(100_000),
    };
    const texts = Object.entries(values).map(([lang, value]) => ({ lang, value }));
    const outcome = await call<{ texts: Entry[] }>(s.client, 'set_texts', { id, kind: 'long', texts });
    expect(outcome.isError, outcome.text).toBe(false);
    const sorted = [...texts].sort((x, y) => x.lang.localeCompare(y.lang));
    expect(outcome.data.texts).toEqual(sorted);
    expect((JSON.parse(outcome.text) as { texts: Entry[] }).texts).toEqual(sorted);
    for (const [lang, value] of Object.entries(values)) {
      const res = await s.rest<Entry>('GET', `/api/product/${id}/texts/long/${lang}`);
      expect(res.status).toBe(200);
      expect(res.body.data!.value === value, lang).toBe(true);
    }
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  it('refuses U+0000 and half surrogate pairs in a value with VALIDATION_FAILED, as REST, and writes nothing', async () => {
    const s = await open();
    const id = await product(s);
    const texts = [
      { lang: 'deu', value: 'fine' },
      { lang: 'eng', value: 'nul\u0000byte' },
    ];
    const outcome = await call(s.client, 'set_texts', { id, kind: 'long', texts });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toBe('texts[1].value must not contain the character U+0000');
    expect(await restTexts(s, id, 'long')).toEqual([]);
    const lone = await call(s.client, 'set_texts', {
      id,
      kind: 'long',
      texts: [{ lang: 'deu', value: 'A\ud800B' }],
    });
    expect(lone.isError).toBe(true);
    expect(lone.data).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(lone.text).toMatch(/^texts\[0\]\.value must not contain half of a surrogate pair/);
    expect(await restTexts(s, id, 'long')).toEqual([]);
  });

  it('refuses a value over 1,000,000 characters and writes nothing', async () => {
    const s = await open();
    const id = await product(s);
    const error = await fail(s.client, 'set_texts', {
      id,
      kind: 'long',
      texts: [
        { lang: 'deu', value: 'ok' },
        { lang: 'eng', value: 'x'.repeat(1_000_001) },
      ],
    });
    expect(error).toEqual({
      error: 'texts[1].value must be at most 1000000 characters',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(await restTexts(s, id, 'long')).toEqual([]);
  });
});

describe('delete_text', () => {
  it('deletes the text of one language; the others and the other kind stay', async () => {
    const s = await open();
    const id = await product(s);
    const both = [
      { lang: 'deu', value: 'a' },
      { lang: 'eng', value: 'b' },
    ];
    await ok(s.client, 'set_texts', { id, kind: 'long', texts: both });
    await ok(s.client, 'set_texts', { id, kind: 'short', texts: both });
    expect(await ok(s.client, 'delete_text', { id, kind: 'long', lang: 'eng' })).toEqual({
      id,
      kind: 'long',
      lang: 'eng',
    });
    expect(await restTexts(s, id, 'long')).toEqual([{ lang: 'deu', value: 'a' }]);
    expect(await restTexts(s, id, 'short')).toEqual(both);
    // ger names deu.
    await ok(s.client, 'delete_text', { id, kind: 'long', lang: 'GER' });
    expect(await restTexts(s, id, 'long')).toEqual([]);
  });

  it('answers TEXT_NOT_FOUND (404) for a missing text, in REST sentence', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_texts', { id, kind: 'short', texts: [{ lang: 'eng', value: 'x' }] });
    const error = await fail(s.client, 'delete_text', { id, kind: 'long', lang: 'eng' });
    expect(error).toEqual({
      error: `Product ${id} has no long text in language eng`,
      code: 'TEXT_NOT_FOUND',
      status: 404,
    });
    expect(error).toEqual(asToolError(await s.rest('DELETE', `/api/product/${id}/texts/long/eng`)));
    const short = await fail(s.client, 'delete_text', { id, kind: 'short', lang: 'deu' });
    expect(short).toEqual({
      error: `Product ${id} has no short text in language deu`,
      code: 'TEXT_NOT_FOUND',
      status: 404,
    });
    expect(await restTexts(s, id, 'short')).toEqual([{ lang: 'eng', value: 'x' }]);
  });

  it('answers PRODUCT_NOT_FOUND for an unknown product and INVALID_LANGUAGE for a bad code, as REST', async () => {
    const s = await open();
    const id = await product(s);
    const unknown = await fail(s.client, 'delete_text', { id: 999_999, kind: 'short', lang: 'deu' });
    expect(unknown).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(unknown).toEqual(asToolError(await s.rest('DELETE', '/api/product/999999/texts/short/deu')));
    const bad = await fail(s.client, 'delete_text', { id, kind: 'short', lang: 'xx' });
    expect(bad).toEqual(asToolError(await s.rest('DELETE', `/api/product/${id}/texts/short/xx`)));
    expect(bad.code).toBe('INVALID_LANGUAGE');
  });
});

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
    const s = await open('first-run');
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

describe('argument validation, as REST bodies', () => {
  const V = (error: string): ToolError => ({ error, code: 'VALIDATION_FAILED', status: 400 });

  it.each([
    ['unknown field', { kind: 'short', texts: [], x: 1 }, V("Unknown field 'x'")],
    [
      'unknown field in an entry',
      { kind: 'short', texts: [{ lang: 'deu', value: 'v', note: 1 }] },
      V("Unknown field 'texts[0].note'"),
    ],
    ['texts missing', { kind: 'short' }, V('texts is required')],
    ['kind missing', { texts: [] }, V('kind is required')],
    [
      'texts of wrong type',
      { kind: 'short', texts: { lang: 'deu', value: 'v' } },
      V('texts must be an array'),
    ],
    ['entry of wrong type', { kind: 'short', texts: ['deu'] }, V('texts[0] must be an object')],
    [
      'value of wrong type',
      { kind: 'short', texts: [{ lang: 'deu', value: 5 }] },
      V('texts[0].value must be a string'),
    ],
    [
      'value null',
      { kind: 'short', texts: [{ lang: 'deu', value: null }] },
      V('texts[0].value must be a string'),
    ],
    ['value missing', { kind: 'short', texts: [{ lang: 'deu' }] }, V('texts[0].value is required')],
    [
      'lang empty',
      { kind: 'short', texts: [{ lang: '', value: 'v' }] },
      V('texts[0].lang must not be empty'),
    ],
  ])('set_texts: %s answers VALIDATION_FAILED (400) and writes nothing', async (_case, args, expected) => {
    const s = await open();
    const id = await product(s);
    expect(await fail(s.client, 'set_texts', { id, ...args })).toEqual(expected);
    expect(await restTexts(s, id, 'short')).toEqual([]);
  });

  it.each([
    [0, 'id must be >= 1'],
    [-1, 'id must be >= 1'],
    [1.5, 'id must be an integer'],
    ['1', 'id must be an integer'],
    [null, 'id must be an integer'],
  ])('id %j answers VALIDATION_FAILED (400) for every text and feature tool', async (id, sentence) => {
    const s = await open();
    const product1 = await product(s);
    expect(product1).toBe(1);
    for (const [name, args] of [
      ['set_texts', { kind: 'short', texts: [{ lang: 'deu', value: 'v' }] }],
      ['delete_text', { kind: 'short', lang: 'deu' }],
      ['set_feature', { ftidref: 'F', values: [{ lang: 'deu', value: 'v' }] }],
      ['delete_feature', { ftidref: 'F' }],
    ] as const) {
      expect(await fail(s.client, name, { id, ...args }), name).toEqual(V(sentence));
    }
    expect(await restTexts(s, product1, 'short')).toEqual([]);
    expect(await restFeatures(s, product1)).toEqual([]);
  });

  it('an unknown kind is refused', async () => {
    const s = await open();
    const id = await product(s);
    const error = await fail(s.client, 'set_texts', { id, kind: 'medium', texts: [] });
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error.error).toMatch(/^kind /);
    const del = await fail(s.client, 'delete_text', { id, kind: 'DESCRIPTIONSHORT', lang: 'deu' });
    expect(del).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it.each([
    ['unknown field', { values: [], x: 1 }, "Unknown field 'x'"],
    [
      'unknown field in a value',
      { values: [{ lang: 'deu', value: '1', extra: true }] },
      "Unknown field 'values[0].extra'",
    ],
    ['values missing', { funit: 'mm' }, 'values is required'],
    ['values not an array', { values: 'x' }, 'values must be an array'],
    ['value of wrong type', { values: [{ lang: 'deu', value: 1 }] }, 'values[0].value must be a string'],
    ['lang missing', { values: [{ value: '1' }] }, 'values[0].lang is required'],
    ['funit of wrong type', { funit: 5, values: [] }, 'funit must be a string or null'],
  ])(
    'set_feature: %s answers VALIDATION_FAILED (400) in the sentence REST answers',
    async (_case, body, sentence) => {
      const s = await open();
      const id = await product(s);
      const error = await fail(s.client, 'set_feature', { id, ftidref: ECLASS, ...body });
      expect(error).toEqual(
        asToolError(await s.rest('PUT', `/api/product/${id}/features/${enc(ECLASS)}`, body)),
      );
      expect(error).toEqual(V(sentence));
      expect(await restFeatures(s, id)).toEqual([]);
    },
  );

  it('set_feature and delete_feature refuse an empty, too long or missing ftidref', async () => {
    const s = await open();
    const id = await product(s);
    expect(await fail(s.client, 'set_feature', { id, ftidref: '', values: [] })).toEqual(
      V('ftidref must not be empty'),
    );
    expect(await fail(s.client, 'set_feature', { id, ftidref: 'x'.repeat(257), values: [] })).toEqual(
      V('ftidref must be at most 256 characters'),
    );
    expect(await fail(s.client, 'set_feature', { id, values: [] })).toEqual(V('ftidref is required'));
    expect(await fail(s.client, 'delete_feature', { id })).toEqual(V('ftidref is required'));
    expect(await fail(s.client, 'delete_feature', { id, ftidref: 'F', lang: 5 })).toEqual(
      V('lang must be a string'),
    );
    expect(await restFeatures(s, id)).toEqual([]);
  });
});

describe('rights', () => {
  it('a VIEWER calling set_texts gets FORBIDDEN (403) as REST answers, and nothing changes', async () => {
    const s = await open();
    const id = await product(s);
    await ok(s.client, 'set_texts', { id, kind: 'short', texts: [{ lang: 'deu', value: 'Original' }] });
    await ok(s.client, 'set_feature', { id, ftidref: 'F', values: [{ lang: 'deu', value: 'v' }] });
    await s.server.addUser('v', 'VIEWER');
    const viewerToken = await s.server.login('v', 'v-password');
    const viewer = await connectHttp(s.server.baseUrl, viewerToken);
    cleanups.push(() => viewer.close());

    const listed = (await viewer.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('get_product');
    expect(listed).not.toContain('set_texts');

    const error = await fail(viewer, 'set_texts', {
      id,
      kind: 'short',
      texts: [{ lang: 'deu', value: 'Changed' }],
    });
    expect(error).toEqual({
      error: "Role VIEWER lacks the right 'Bearbeiten' this operation needs",
      code: 'FORBIDDEN',
      status: 403,
    });
    const rest = await s.server.request('PUT', `/api/product/${id}/texts/short/deu`, {
      token: viewerToken,
      body: { value: 'Changed' },
    });
    expect(error).toEqual(asToolError(rest));

    // The right is checked before the arguments, as REST does.
    expect(await fail(viewer, 'set_texts', { id: 0, kind: 'x', texts: 1 })).toEqual(error);
    for (const [name, args] of [
      ['delete_text', { id, kind: 'short', lang: 'deu' }],
      ['set_feature', { id, ftidref: 'F', values: [{ lang: 'deu', value: 'w' }] }],
      ['delete_feature', { id, ftidref: 'F' }],
    ] as const) {
      expect(await fail(viewer, name, args), name).toEqual(error);
    }

    expect(await restTexts(s, id, 'short')).toEqual([{ lang: 'deu', value: 'Original' }]);
    expect(await restFeatures(s, id)).toEqual([
      { ftidref: 'F', funit: null, names: [], values: [{ lang: 'deu', value: 'v' }] },
    ]);
    // Reading stays allowed.
    const sheet = await ok<{ shortTexts: Entry[] }>(viewer, 'get_product', { id });
    expect(sheet.shortTexts).toEqual([{ lang: 'deu', value: 'Original' }]);
  });
});
