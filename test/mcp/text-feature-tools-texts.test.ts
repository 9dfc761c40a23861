import { describe, expect, it } from 'vitest';
import { call, ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { product, restTexts, type Entry } from './text-feature-tools.fixtures.js';

/** The text tools set_texts and delete_text, black box: every change checked through the REST text endpoints. */

/** One application for the file: each test makes its own product and reads only its own. */
const { open } = sessionPerFile();

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
    const productIds = async () =>
      (await s.rest<{ id: number }[]>('GET', '/api/product?all=true')).body.data!.map((p) => p.id);
    const before = await productIds();
    expect(before).toContain(id);
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
    expect(await productIds()).toEqual(before);
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
