import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsvStrict } from '../helpers/csv.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Whatever a client sends (odd ids, languages and FT_IDREFs, broken percent-encoding, odd query
 * parameters, any JSON or no JSON at all), every documented route answers in the envelope, as
 * JSON, with a status below 500. The routes come from the served OpenAPI description, so a new
 * route is covered without touching this test.
 */

const idArb = fc.oneof(
  fc.constantFrom('1', '2', '0', '-1', '1e3', '99999999999999999999', '9007199254740993', 'abc', '1.5'),
  fc.constantFrom('%00', '%201', '0x10', '01', '%2e%2e', '%E0%A4%A', '%FF', '%C3'),
  fc.integer().map(String),
  fc.string().map(encodeURIComponent),
);
const langArb = fc.oneof(
  fc.constantFrom('deu', 'eng', 'ger', 'DEU', 'de', 'xx', '', 'zzz', '%2F', '%00', 'd%C3%A9u', '%FF'),
  fc.string({ maxLength: 5 }).map(encodeURIComponent),
);
const ftidrefArb = fc.oneof(
  fc.constantFrom(
    'COLOR',
    '0173-1%2302-AAF040%23004',
    '%2F',
    '%00',
    'a%20b',
    '%25',
    '%E0%A4%A',
    'x'.repeat(1001),
  ),
  fc.string().map(encodeURIComponent),
  fc.string({ unit: 'binary' }).map(encodeURIComponent),
);
const bodyArb = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        supplierPid: fc.oneof(fc.string(), fc.jsonValue()),
        name: fc.oneof(fc.string(), fc.jsonValue()),
        language: fc.oneof(langArb, fc.jsonValue()),
        masterProductId: fc.oneof(fc.integer(), fc.jsonValue()),
        ean: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        value: fc.oneof(fc.string(), fc.jsonValue()),
        values: fc.jsonValue(),
        funit: fc.jsonValue(),
        parentId: fc.oneof(fc.integer(), fc.jsonValue()),
        productIds: fc.oneof(fc.array(fc.integer()), fc.jsonValue()),
        workspaceId: fc.jsonValue(),
        workspaceName: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.constantFrom('{', '', '[1,2', 'null', '"text"', '{"a":1}{'),
);
const queryArb = fc.array(
  fc.tuple(
    fc.constantFrom(
      'limit',
      'after',
      'all',
      'updatedSince',
      'q',
      'supplierPid',
      'ean',
      'lang',
      'deleteProducts',
    ),
    fc.oneof(
      fc.constantFrom('0', '1', '1000', '1001', 'true', 'false', 'yes', '', 'abc', '-1', '%00', '%25', '%FF'),
      fc.constantFrom('2026-01-01', '2026-13-45T99:99:99Z', 'deu', 'xx'),
      fc.string().map(encodeURIComponent),
    ),
  ),
  { maxLength: 3 },
);

describe('any input on any route', () => {
  let server: TestServer;
  let token: string;
  let routes: [string, string][];
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
    // Something to find: products 1 and 2 (a variant), a text, a feature and group 1.
    await server.request('POST', '/api/product', { token, body: { supplierPid: 'ANY-1', name: 'Eins' } });
    await server.request('POST', '/api/product/1/variants', { token, body: { supplierPid: 'ANY-2' } });
    await server.request('PUT', '/api/product/1/features/COLOR', {
      token,
      body: { values: { deu: 'rot' }, funit: 'x' },
    });
    await server.request('POST', '/api/group', { token, body: { name: 'Gruppe' } });
    const doc = (await server.request('GET', '/api/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => [method.toUpperCase(), path] as [string, string]),
    );
  });
  afterAll(() => server.stop());

  it('answers in the envelope with a status below 500', async () => {
    // Logging out or switching the workspace would change what the other runs see.
    const usable = routes.filter(([, path]) => path !== '/api/auth/logout' && path !== '/api/workspace/open');
    expect(usable.length).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...usable),
        fc.record({ id: idArb, productId: idArb, lang: langArb, ftidref: ftidrefArb }),
        fc.option(bodyArb, { nil: undefined }),
        queryArb,
        async ([method, template], params, body, query) => {
          const path =
            template
              .replace('{id}', params.id)
              .replace('{productId}', params.productId)
              .replace('{lang}', params.lang)
              .replace('{ftidref}', params.ftidref) +
            (query.length > 0 ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : '');
          const withBody = method !== 'GET' && body !== undefined;
          const res = await server.request(method, path, {
            token,
            ...(withBody ? { rawBody: body, headers: { 'content-type': 'application/json' } } : {}),
          });
          const where = `${method} ${path} ${withBody ? body : ''} -> ${res.status} ${res.text.slice(0, 200)}`;
          expect(res.status, where).toBeLessThan(500);
          // The one success that is not JSON: the catalogue as BMEcat, CSV or XLSX (refusals in the envelope).
          if (template === '/api/export' && res.status === 200) {
            const type = res.headers.get('content-type');
            if (type === 'text/csv; charset=utf-8')
              expect(parseCsvStrict(res.text.replace(/^\uFEFF/, '')).length, where).toBeGreaterThan(0);
            else if (type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
              expect(res.text.startsWith('PK'), where).toBe(true);
            else {
              expect(type, where).toBe('application/xml; charset=utf-8');
              expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), where).toBe(true);
            }
            return;
          }
          expect(res.headers.get('content-type'), where).toBe('application/json; charset=utf-8');
          expect(typeof res.body.success, where).toBe('boolean');
          if (!res.body.success) expect(res.body.error, where).toEqual(expect.any(String));
        },
      ),
      { numRuns: 600 },
    );
  }, 60_000);
});
