import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

let server: TestServer;
let token: string;
let seq = 0;
const pid = () => `T-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });

async function product(body: Record<string, unknown> = {}): Promise<number> {
  const res = await call<{ id: number }>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe.each([
  ['short', 'long'],
  ['long', 'short'],
])('%s texts', (kind, otherKind) => {
  it('lists all languages ordered by language code (empty at first)', async () => {
    const id = await product();
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body).toEqual({ success: true, data: [] });
    for (const [lang, value] of [
      ['fra', 'Perceuse'],
      ['deu', 'Bohrer'],
      ['eng', 'Drill'],
    ]) {
      const res = await call('PUT', `/api/product/${id}/texts/${kind}/${lang}`, { value });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { lang, value } });
    }
    const list = await call('GET', `/api/product/${id}/texts/${kind}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { lang: 'deu', value: 'Bohrer' },
      { lang: 'eng', value: 'Drill' },
      { lang: 'fra', value: 'Perceuse' },
    ]);
    // the other kind is separate
    expect((await call('GET', `/api/product/${id}/texts/${otherKind}`)).body.data).toEqual([]);
    expect((await call('GET', `/api/product/${id}/texts/${otherKind}/deu`)).status).toBe(404);
  });

  it('reads one language, normalising the code (ger, GER, Deu are deu)', async () => {
    const id = await product();
    await call('PUT', `/api/product/${id}/texts/${kind}/ger`, { value: 'Bohrer' });
    for (const lang of ['deu', 'ger', 'GER', 'Deu']) {
      const res = await call('GET', `/api/product/${id}/texts/${kind}/${lang}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ lang: 'deu', value: 'Bohrer' });
    }
    await call('PUT', `/api/product/${id}/texts/${kind}/fre`, { value: 'Perceuse' });
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body.data).toEqual([
      { lang: 'deu', value: 'Bohrer' },
      { lang: 'fra', value: 'Perceuse' },
    ]);
  });

  it('upserts: PUT replaces the value of an existing language and keeps the others', async () => {
    const id = await product();
    await call('PUT', `/api/product/${id}/texts/${kind}/deu`, { value: 'alt' });
    await call('PUT', `/api/product/${id}/texts/${kind}/eng`, { value: 'old' });
    const res = await call('PUT', `/api/product/${id}/texts/${kind}/deu`, { value: 'neu' });
    expect(res.body.data).toEqual({ lang: 'deu', value: 'neu' });
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body.data).toEqual([
      { lang: 'deu', value: 'neu' },
      { lang: 'eng', value: 'old' },
    ]);
  });

  it('answers 404 TEXT_NOT_FOUND for a missing text, on read and delete', async () => {
    const id = await product();
    const res = await call('GET', `/api/product/${id}/texts/${kind}/eng`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: `Product ${id} has no ${kind} text in language eng`,
      code: 'TEXT_NOT_FOUND',
    });
    const del = await call('DELETE', `/api/product/${id}/texts/${kind}/eng`);
    expect(del.status).toBe(404);
    expect(del.body.code).toBe('TEXT_NOT_FOUND');
  });

  it('deletes one language: 200 without data, the others stay', async () => {
    const id = await product();
    await call('PUT', `/api/product/${id}/texts/${kind}/deu`, { value: 'a' });
    await call('PUT', `/api/product/${id}/texts/${kind}/eng`, { value: 'b' });
    const res = await call('DELETE', `/api/product/${id}/texts/${kind}/ger`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await call('GET', `/api/product/${id}/texts/${kind}/deu`)).status).toBe(404);
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body.data).toEqual([
      { lang: 'eng', value: 'b' },
    ]);
  });

  it('answers 400 for language codes that are not ISO 639-2', async () => {
    const id = await product();
    for (const lang of ['de', 'xx', 'german', 'xxx', '123', 'd%C3%BC', '%20de']) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { value: 'v' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/api/product/${id}/texts/${kind}/${lang}`, body);
        expect(res.status, `${method} ${lang}`).toBe(400);
        expect(res.body.success).toBe(false);
      }
    }
    const res = await call('PUT', `/api/product/${id}/texts/${kind}/xx`, { value: 'v' });
    expect(res.body.code).toBe('INVALID_LANGUAGE');
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body.data).toEqual([]);
  });

  it('refuses bodies without a string value, or with unknown fields', async () => {
    const id = await product();
    for (const body of [
      {},
      { value: 5 },
      { value: null },
      { value: ['x'] },
      { value: 'x', lang: 'deu' },
      'x',
    ]) {
      const res = await call('PUT', `/api/product/${id}/texts/${kind}/deu`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const none = await server.request('PUT', `/api/product/${id}/texts/${kind}/deu`, { token });
    expect(none.status).toBe(400);
    expect((await call('GET', `/api/product/${id}/texts/${kind}`)).body.data).toEqual([]);
  });

  it('stores values exactly: whitespace, markup, unicode, empty, up to 1,000,000 characters', async () => {
    const id = await product();
    const values = [
      '',
      '  padded  \n\t',
      '<p onclick="x()">Bohrer &amp; <b>Zubehör</b></p><script>alert(1)</script>',
      'Ünïcödé 😀 👩‍👩‍👧 ∑ 漢字 \u0001 \u200b \r\n',
      'ab'.repeat(500_000),
      '😀'.repeat(1_000_000),
    ];
    for (const value of values) {
      const put = await call('PUT', `/api/product/${id}/texts/${kind}/eng`, { value });
      expect(put.status).toBe(200);
      const got = await call<{ value: string }>('GET', `/api/product/${id}/texts/${kind}/eng`);
      expect(got.body.data!.value === value).toBe(true);
    }
    const tooLong = await call('PUT', `/api/product/${id}/texts/${kind}/eng`, {
      value: 'x'.repeat(1_000_001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('1000000');
    // U+0000 alone is refused, on every backend (PostgreSQL's text cannot hold it, nor can BMEcat's XML).
    const nul = await call('PUT', `/api/product/${id}/texts/${kind}/eng`, { value: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.error).toBe('value must not contain the character U+0000');
    // Half a surrogate pair is no character: UTF-8 cannot hold it, so it is refused, never altered.
    for (const half of ['a\ud800b', 'end\udbff', '\udc00start']) {
      const lone = await call('PUT', `/api/product/${id}/texts/${kind}/eng`, {
        value: JSON.parse(`"${half}"`),
      });
      expect(lone.status, half).toBe(400);
      expect(lone.body.error).toBe(
        'value must not contain half of a surrogate pair (such as \\ud800 without its partner): it is no character',
      );
    }
    expect(
      (await call<{ value: string }>('GET', `/api/product/${id}/texts/${kind}/eng`)).body.data!.value ===
        '😀'.repeat(1_000_000),
    ).toBe(true);
  });
});

describe('short texts and ProductDto.name', () => {
  it('a short text written through the text endpoints is the product name', async () => {
    const id = await product({ name: 'Alt' });
    await call('PUT', `/api/product/${id}/texts/short/deu`, { value: 'Neu' });
    expect((await call<{ name: string }>('GET', `/api/product/${id}`)).body.data!.name).toBe('Neu');
    await call('DELETE', `/api/product/${id}/texts/short/deu`);
    expect((await call<{ name: string }>('GET', `/api/product/${id}`)).body.data!.name).toBe('');
  });
});

describe('property: text values round-trip unchanged', () => {
  it('for arbitrary unicode strings, markup included', async () => {
    const id = await product();
    const markup = fc.constantFrom(
      '<b>',
      '</b>',
      '<p class="x">',
      '&amp;',
      '&#x27;',
      '<![CDATA[',
      ']]>',
      '\\',
      '"',
    );
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .array(fc.oneof(markup, fc.string({ unit: 'grapheme', maxLength: 20 })), { maxLength: 20 })
        .map((parts) => parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(
        value,
        fc.constantFrom('short', 'long'),
        fc.constantFrom('deu', 'eng', 'fra'),
        async (v, kind, lang) => {
          const put = await call<{ lang: string; value: string }>(
            'PUT',
            `/api/product/${id}/texts/${kind}/${lang}`,
            {
              value: v,
            },
          );
          if (v.includes('\u0000')) {
            // Refused whole, on every backend; the stored value (if any) stays as it was.
            const before = await call('GET', `/api/product/${id}/texts/${kind}/${lang}`);
            expect(put.status).toBe(400);
            expect(await call('GET', `/api/product/${id}/texts/${kind}/${lang}`)).toEqual(before);
            return;
          }
          expect(put.status).toBe(200);
          expect(put.body.data).toEqual({ lang, value: v });
          const got = await call('GET', `/api/product/${id}/texts/${kind}/${lang}`);
          expect(got.body.data).toEqual({ lang, value: v });
          const all = await call<Array<{ lang: string; value: string }>>(
            'GET',
            `/api/product/${id}/texts/${kind}`,
          );
          expect(all.body.data!.find((t) => t.lang === lang)).toEqual({ lang, value: v });
        },
      ),
      { numRuns: 50 },
    );
  });
});
