import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as mcpCall, connectHttp, ok } from '../helpers/mcp.js';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/**
 * ProductDto.variantCount is stored on the main product (migration 0013) and kept by triggers on
 * every write path. Each kind of write is followed at once by the reads that show the count: the
 * product by id, a page of the list (the read-only connection's statements), the streamed list,
 * a group's products and the agents' list_products.
 */

const file = serverPerFile();
const { call, create } = productRest(file);
let client: Client;

beforeAll(async () => {
  client = await connectHttp(file.server.baseUrl, file.token);
});
afterAll(async () => {
  await client.close();
});

interface Page {
  items: { id: number; variantCount: number }[];
  nextCursor: string | null;
}

/** The count as every list read shows it, checked to agree with GET by id. */
async function variantCount(id: number): Promise<number> {
  const byId = await call<Product>('GET', `/api/product/${id}`);
  expect(byId.status, byId.text).toBe(200);
  const count = byId.body.data!.variantCount;
  const page = await call<Product[]>('GET', `/api/product?limit=1&after=${cursorBefore(id)}&all=true`);
  expect(page.body.data!.map((p) => [p.id, p.variantCount])).toEqual([[id, count]]);
  const supplierPid = byId.body.data!.supplierPid;
  const stream = await call<Product[]>('GET', `/api/product?all=true&supplierPid=${supplierPid}`);
  expect(stream.body.data!.map((p) => [p.id, p.variantCount])).toEqual([[id, count]]);
  const listed = await ok<Page>(client, 'search_products', { supplierPid, includeVariants: true, limit: 5 });
  expect(listed.items.map((p) => [p.id, p.variantCount])).toEqual([[id, count]]);
  return count;
}

/** The cursor of the page that begins with product `id` (product.cursor.ts: the last id seen). */
function cursorBefore(id: number): string {
  return Buffer.from(`p:${id - 1}`).toString('base64url');
}

const variantOf = async (mainId: number) => {
  const res = await call<Product>('POST', `/api/product/${mainId}/variants`, { supplierPid: pid('V') });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
};

describe('variantCount after each kind of write', () => {
  it('REST: POST of variants, DELETE of one, PUT of a variant, DELETE of the main product', async () => {
    const main = await create();
    const other = await create();
    expect(await variantCount(main.id)).toBe(0);
    const [a, b] = [await variantOf(main.id), await variantOf(main.id)];
    await variantOf(other.id);
    expect(await variantCount(main.id)).toBe(2);
    expect(await variantCount(other.id)).toBe(1);
    const put = await call('PUT', `/api/product/${a.id}`, { ean: '42' });
    expect(put.status, put.text).toBe(200);
    expect(await variantCount(main.id)).toBe(2);
    expect(await variantCount(a.id)).toBe(0);
    expect((await call('DELETE', `/api/product/${b.id}`)).status).toBe(200);
    expect(await variantCount(main.id)).toBe(1);
    expect((await call('DELETE', `/api/product/${main.id}`)).status).toBe(200);
    expect((await call('GET', `/api/product/${a.id}`)).status).toBe(404);
    expect(await variantCount(other.id)).toBe(1);
  });

  it('bulk: variants created with and before their main product, then deleted by supplierPid', async () => {
    const [main, v1, v2, v3] = [pid('M'), pid('V'), pid('V'), pid('V')];
    const stored = await create();
    const upsert = await call<{ status: number; id?: number }[]>('POST', '/api/product/bulk', [
      { supplierPid: v1, masterSupplierPid: main },
      { supplierPid: main },
      { supplierPid: v2, masterSupplierPid: main },
      { supplierPid: v3, masterSupplierPid: stored.supplierPid },
    ]);
    expect(upsert.body.data!.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const mainId = upsert.body.data![1]!.id!;
    expect(await variantCount(mainId)).toBe(2);
    expect(await variantCount(stored.id)).toBe(1);
    // An update of a variant by bulk changes no count.
    await call('POST', '/api/product/bulk', [{ supplierPid: v1, masterSupplierPid: main, ean: '1' }]);
    expect(await variantCount(mainId)).toBe(2);
    const removed = await call<{ status: number }[]>('POST', '/api/product/bulk-delete', {
      supplierPids: [v1, v3],
    });
    expect(removed.body.data!.map((r) => r.status)).toEqual([200, 200]);
    expect(await variantCount(mainId)).toBe(1);
    expect(await variantCount(stored.id)).toBe(0);
  });

  it('the product sheet: a PUT of the main product keeps its count', async () => {
    const main = await create();
    await variantOf(main.id);
    const put = await call('PUT', `/api/product/${main.id}/sheet`, {
      product: { supplierPid: main.supplierPid },
      shortTexts: [{ lang: 'deu', value: 'Neu' }],
      longTexts: [],
      features: [],
      groups: [],
      manufacturerName: null,
      keywords: [],
      media: [],
      fragments: [],
    });
    expect(put.status, put.text).toBe(200);
    expect(await variantCount(main.id)).toBe(1);
  });

  it('MCP: create_product with masterProductId and delete_product', async () => {
    const main = await create();
    const created = await ok<{ product: { id: number } }>(client, 'create_product', {
      supplierPid: pid('MV'),
      masterProductId: main.id,
    });
    expect(await variantCount(main.id)).toBe(1);
    const deleted = await mcpCall(client, 'delete_product', { id: created.product.id });
    expect(deleted.isError, deleted.text).toBe(false);
    expect(await variantCount(main.id)).toBe(0);
  });
});
