import { beforeAll, describe, expect, it } from 'vitest';
import { schemaProblems } from '../helpers/bmecat-export.js';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * `GET /api/export`: the open workspace as BMEcat, streamed as application/xml; refusals before the
 * first byte in the envelope; readable by every role that reads the catalogue.
 */
/** One application for the file, with the catalogue every test exports and none changes. */
const shared = lazyServerPerFile();
let server: TestServer;
let token: string;
let groupNumber: string;
beforeAll(async () => {
  server = await shared();
  token = await server.login();
  const group = await server.request<{ id: number; groupId: string }>('POST', '/api/group', {
    token,
    body: { name: 'Bohrer' },
  });
  const product = await server.request<{ id: number }>('POST', '/api/product', {
    token,
    body: { supplierPid: 'B-1', ean: '4008190397111' },
  });
  await server.request('PUT', `/api/product/${product.body.data!.id}/texts/short/deu`, {
    token,
    body: { value: 'Bohrer <5 mm>' },
  });
  await server.request('POST', `/api/group/${group.body.data!.id}/products`, {
    token,
    body: { productIds: [product.body.data!.id] },
  });
  groupNumber = group.body.data!.groupId;
});

/** `bearer` null: no Authorization header at all. */
const exportOf = (query: string, bearer: string | null = token) =>
  fetch(`${server.baseUrl}/api/export${query}`, {
    headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
  });

describe('GET /api/export', () => {
  it('streams the catalogue as BMEcat, valid against the 2005.1 schema', async () => {
    const res = await exportOf('?format=2005.1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="catalogue.xml"');
    const xml = await res.text();
    expect(xml).toContain('<DESCRIPTION_SHORT lang="deu">Bohrer &lt;5 mm&gt;</DESCRIPTION_SHORT>');
    expect(xml).toContain('<INTERNATIONAL_PID type="gtin">4008190397111</INTERNATIONAL_PID>');
    expect(xml).toContain(
      `<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>B-1</PROD_ID><CATALOG_GROUP_ID>${groupNumber}</CATALOG_GROUP_ID>`,
    );
    expect(groupNumber).toBe('1');
    expect(await schemaProblems(xml)).toBe('');
  });

  it('is a read: a VIEWER exports too', async () => {
    await server.addUser('vera', 'VIEWER', 'viewer-password-1');
    const res = await exportOf('', await server.login('vera', 'viewer-password-1'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<SUPPLIER_PID>B-1</SUPPLIER_PID>');
  });

  it('answers refusals in the envelope, before any XML', async () => {
    const cases: [string, string | null, number, string][] = [
      ['', null, 401, 'TOKEN_MISSING'],
      ['', 'not-a-token', 401, 'TOKEN_INVALID'],
      ['?groupId=999', token, 404, 'GROUP_NOT_FOUND'],
      ['?languages=xx', token, 400, 'VALIDATION_FAILED'],
      ['?format=2006', token, 400, 'VALIDATION_FAILED'],
      ['?strict=maybe', token, 400, 'VALIDATION_FAILED'],
      ['?nope=1', token, 400, 'VALIDATION_FAILED'],
    ];
    for (const [query, bearer, status, code] of cases) {
      const res = await exportOf(query, bearer);
      expect(res.status, query).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { success: boolean; code: string };
      expect(body.success).toBe(false);
      expect(body.code, query).toBe(code);
    }
  });

  it('answers 409 without an open workspace', async () => {
    // Its own application: one without a workspace.
    const none = await startServer({ setup: 'no-workspace' });
    try {
      const res = await fetch(`${none.baseUrl}/api/export`, {
        headers: { authorization: `Bearer ${await none.login()}` },
      });
      expect(res.status).toBe(409);
    } finally {
      await none.stop();
    }
  });
});
