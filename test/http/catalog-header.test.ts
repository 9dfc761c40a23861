import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { connectHttp, ok } from '../helpers/mcp.js';
import { fail } from '../helpers/mcp-session.js';

/**
 * The BMEcat HEADER's ids and names of the open workspace over REST (GET and PUT
 * /api/export/header) and MCP (get_catalog_header, set_catalog_header): the same service as the
 * window's dialog and `pim workspace header`, so a value set one way is read every other way and
 * written by the next export. Each test sets values of its own and compares with what it read first.
 */
const file = serverPerFile();

interface Header {
  catalogId: string | null;
  catalogVersion: string | null;
  catalogName: string | null;
  supplierName: string | null;
  supplierId: string | null;
  supplierIdType: string | null;
}

const rest = <T = Header>(method: string, body?: unknown, token = file.token) =>
  file.server.request<T>(method, '/api/export/header', { token, body });

const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

describe('the BMEcat header over REST', () => {
  it('is read and set by the fields sent, and the next export writes it', async () => {
    const id = `R-${unique()}`;
    const put = await rest('PUT', { catalogId: id, catalogVersion: '2.1', supplierName: 'Acme GmbH' });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toMatchObject({ catalogId: id, catalogVersion: '2.1', supplierName: 'Acme GmbH' });
    // Fields not sent stay; null clears one.
    const cleared = await rest('PUT', { supplierName: null });
    expect(cleared.body.data).toMatchObject({ catalogId: id, catalogVersion: '2.1', supplierName: null });
    expect((await rest('GET')).body.data).toEqual(cleared.body.data);
    const xml = await (
      await fetch(`${file.server.baseUrl}/api/export?format=2005.1`, {
        headers: { authorization: `Bearer ${file.token}` },
      })
    ).text();
    expect(xml).toContain(`<CATALOG_ID>${id}</CATALOG_ID><CATALOG_VERSION>2.1</CATALOG_VERSION>`);
  });

  it('refuses a bad value, an unknown field and a VIEWER, changing nothing', async () => {
    await rest('PUT', { catalogId: `B-${unique()}` });
    const before = (await rest('GET')).body.data;
    for (const body of [
      { catalogVersion: '1' },
      { catalogId: 'x'.repeat(21) },
      { supplierIdType: 'not a type' },
      { catalogId: 7 },
      { colour: 'red' },
      ['catalogId'],
    ]) {
      const res = await rest<unknown>('PUT', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const name = `v${unique().toLowerCase()}`;
    await file.server.addUser(name, 'VIEWER');
    const viewer = await file.server.login(name, `${name}-password`);
    expect((await rest('GET', undefined, viewer)).body.data).toEqual(before);
    expect((await rest('PUT', { catalogId: 'V-1' }, viewer)).status).toBe(403);
    expect((await rest('GET')).body.data).toEqual(before);
  });
});

describe('the BMEcat header over MCP', () => {
  it('is read and set by the tools, as REST reads it; a VIEWER has only the read tool', async () => {
    const client = await connectHttp(file.server.baseUrl, file.token);
    try {
      const id = `M-${unique()}`;
      const set = await ok<Header>(client, 'set_catalog_header', { catalogId: id, supplierIdType: 'gln' });
      expect(set).toMatchObject({ catalogId: id, supplierIdType: 'gln' });
      expect(await ok<Header>(client, 'get_catalog_header')).toEqual((await rest('GET')).body.data);
      const refused = await fail(client, 'set_catalog_header', { catalogVersion: 'one' });
      expect(refused.status).toBe(400);
      expect((await rest('GET')).body.data).toEqual(set);
    } finally {
      await client.close();
    }
    const name = `w${unique().toLowerCase()}`;
    await file.server.addUser(name, 'VIEWER');
    const viewer = await connectHttp(file.server.baseUrl, await file.server.login(name, `${name}-password`));
    try {
      const names = (await viewer.listTools()).tools.map((t) => t.name);
      expect(names).toContain('get_catalog_header');
      expect(names).not.toContain('set_catalog_header');
    } finally {
      await viewer.close();
    }
  });
});
