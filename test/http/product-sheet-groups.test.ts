import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * A product in several groups (the product model): REST's group routes change its first group
 * (groupId) and keep the others, which the sheet shows in order.
 */
let server: TestServer;
let token: string;
const groups: number[] = [];

interface SheetGroups {
  group: { id: number } | null;
  groups: { id: number; groupId: string; name: string; catalogGroupId: string | null }[];
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  for (const name of ['A', 'B', 'C']) {
    const created = await server.request<{ id: number }>('POST', '/api/group', { token, body: { name } });
    groups.push(created.body.data!.id);
  }
});
afterAll(() => server.stop());

const sheetOf = async (id: number) =>
  (await server.request<SheetGroups>('GET', `/api/product/${id}/sheet`, { token })).body.data!;
const ids = (sheet: SheetGroups) => sheet.groups.map((g) => g.id);

describe('a product in several groups', () => {
  it('keeps its other groups when REST removes it from its first, and shows them in order', async () => {
    const [a, b, c] = groups as [number, number, number];
    const product = await server.request<{ id: number }>('POST', '/api/product', {
      token,
      body: { supplierPid: 'MULTI-1' },
    });
    const id = product.body.data!.id;
    const sheet = await sheetOf(id);
    const put = await server.request('PUT', `/api/product/${id}/sheet`, {
      token,
      body: { ...sheet, group: undefined, groups: [{ id: a }, { id: b }, { id: c }], variants: undefined },
    });
    expect(put.status).toBe(200);
    let read = await sheetOf(id);
    expect(read.group).toEqual({ id: a, groupId: '1', name: 'A' });
    expect(read.groups).toEqual([
      { id: a, groupId: '1', name: 'A', catalogGroupId: null },
      { id: b, groupId: '2', name: 'B', catalogGroupId: null },
      { id: c, groupId: '3', name: 'C', catalogGroupId: null },
    ]);
    // GET /api/group/{id}/products and productCount count the first group only.
    const inB = await server.request<unknown[]>('GET', `/api/group/${b}/products`, { token });
    expect(inB.body.data).toEqual([]);

    expect((await server.request('DELETE', `/api/group/${a}/products/${id}`, { token })).status).toBe(200);
    read = await sheetOf(id);
    expect(read.group).toBeNull();
    expect(ids(read)).toEqual([b, c]);

    // Assigning it to one of its other groups makes that its first, listed once.
    expect(
      (await server.request('POST', `/api/group/${c}/products`, { token, body: { productIds: [id] } }))
        .status,
    ).toBe(200);
    read = await sheetOf(id);
    expect(read.group?.id).toBe(c);
    expect(ids(read)).toEqual([c, b]);

    // Deleting a group drops it from the product's other groups.
    expect((await server.request('DELETE', `/api/group/${b}`, { token })).status).toBe(200);
    expect(ids(await sheetOf(id))).toEqual([c]);

    // The bulk upsert's set-based path too: a first group sent is not kept among the others.
    const again = await sheetOf(id);
    await server.request('PUT', `/api/product/${id}/sheet`, {
      token,
      body: { ...again, group: undefined, groups: [{ id: c }, { id: a }], variants: undefined },
    });
    expect(ids(await sheetOf(id))).toEqual([c, a]);
    const bulk = await server.request<{ status: number }[]>('POST', '/api/product/bulk', {
      token,
      body: [{ supplierPid: 'MULTI-1', groupId: a }],
    });
    expect(bulk.body.data!.map((r) => r.status)).toEqual([200]);
    expect(ids(await sheetOf(id))).toEqual([a]);
  });
});
