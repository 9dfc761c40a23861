import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { call, connectHttp } from '../helpers/mcp.js';
import type { Client } from '@modelcontextprotocol/client';

/**
 * Names and identifiers must show something: a supplierPid, product name or group name made only
 * of white space or invisible characters is refused with 400 naming the field, on REST and MCP
 * alike; inside a visible value every character is stored as sent.
 */

const file = serverPerFile();
let client: Client;
beforeAll(async () => {
  client = await connectHttp(file.server.baseUrl, file.token);
});
afterAll(() => client.close());

const api = <T = unknown>(method: string, path: string, body?: unknown) =>
  file.server.request<T>(method, path, { token: file.token, body });

const BLANK: [string, string][] = [
  ['a space', ' '],
  ['white space of several kinds', ' \t\n\u00a0\u3000'],
  ['the next-line control U+0085', '\u0085'],
  ['the zero-width space', '\u200b'],
  ['bidirectional marks and a soft hyphen', '\u200e\u200f\u00ad'],
  ['the BOM', '\ufeff'],
  ['a Hangul filler', '\u3164'],
  ['a variation selector', '\ufe0f'],
  ['tag characters', '\u{e0041}\u{e007f}'],
  ['the Braille blank', '\u2800'],
  ['an escape character', '\u001b'],
];

const VISIBLE = ['a\u200bb', ' x ', 'e\u0301', '😀', '\u200bX\u200b', '\ue000'];

const refused = (field: string) => ({
  success: false,
  error: `${field} must not be empty or only white space or invisible characters`,
  code: 'VALIDATION_FAILED',
});

describe('REST', () => {
  it.each(BLANK)('refuses a supplierPid of %s on create, update, variant and bulk', async (_, blank) => {
    expect((await api('POST', '/api/product', { supplierPid: blank })).body).toEqual(refused('supplierPid'));
    const main = await api<{ id: number }>('POST', '/api/product', {
      supplierPid: `MAIN-${blank.length}-${_}`,
    });
    expect(main.status, main.text).toBe(201);
    const id = main.body.data!.id;
    expect((await api('PUT', `/api/product/${id}`, { supplierPid: blank })).body).toEqual(
      refused('supplierPid'),
    );
    expect((await api('POST', `/api/product/${id}/variants`, { supplierPid: blank })).body).toEqual(
      refused('supplierPid'),
    );
    const bulk = await api<{ status: number; error: string }[]>('POST', '/api/product/bulk', [
      { supplierPid: blank },
    ]);
    expect(bulk.body.data).toEqual([
      { supplierPid: blank, id: null, status: 400, ...pick(refused('supplierPid')) },
    ]);
    expect(
      (await api('GET', `/api/product?all=true&supplierPid=${encodeURIComponent(blank)}`)).body.data,
    ).toEqual([]);
    expect((await api('DELETE', `/api/product/${id}`)).status).toBe(200);
  });

  it.each(BLANK)('refuses a product name and a group name of %s', async (_, blank) => {
    expect((await api('POST', '/api/product', { supplierPid: 'NAMED', name: blank })).body).toEqual(
      refused('name'),
    );
    expect((await api('POST', '/api/group', { name: blank })).body).toEqual(refused('name'));
    const group = await api<{ id: number }>('POST', '/api/group', { name: 'Visible' });
    expect((await api('PUT', `/api/group/${group.body.data!.id}`, { name: blank })).body).toEqual(
      refused('name'),
    );
    expect((await api('DELETE', `/api/group/${group.body.data!.id}`)).status).toBe(200);
  });

  it('stores visible values as sent, invisible characters inside them included', async () => {
    for (const value of VISIBLE) {
      const product = await api<{ id: number; supplierPid: string; name: string }>('POST', '/api/product', {
        supplierPid: value,
        name: value,
      });
      expect(product.status, product.text).toBe(201);
      expect(product.body.data).toMatchObject({ supplierPid: value, name: value });
      const group = await api<{ name: string }>('POST', '/api/group', { name: value });
      expect(group.status, group.text).toBe(201);
      expect(group.body.data!.name).toBe(value);
    }
  });

  it('names stored products by any supplierPid in references (bulk delete): 404, not 400', async () => {
    const res = await api<{ status: number }[]>('POST', '/api/product/bulk-delete', {
      supplierPids: ['\u200b'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data!.map((r) => r.status)).toEqual([404]);
  });
});

describe('MCP', () => {
  it.each(BLANK)('refuses a supplierPid, product name and group name of %s', async (_, blank) => {
    const error = (field: string) => ({ ...pick(refused(field)), status: 400 });
    expect((await call(client, 'create_product', { supplierPid: blank })).data).toEqual(error('supplierPid'));
    expect((await call(client, 'create_product', { supplierPid: 'M', name: blank })).data).toEqual(
      error('name'),
    );
    expect((await call(client, 'create_group', { name: blank })).data).toEqual(error('name'));
    // The tool's arguments are validated whole, as for every tool: the field is named by its path.
    expect((await call(client, 'upsert_products', { products: [{ supplierPid: blank }] })).data).toEqual(
      error('products[0].supplierPid'),
    );
  });
});

function pick({ error, code }: { error: string; code: string }) {
  return { error, code };
}
