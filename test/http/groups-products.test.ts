import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';

/** Products in groups over REST: assign, list, remove, delete with products, updatedAt, true counts. */

interface ProductDto {
  id: number;
  supplierPid: string;
  masterProductId: number | null;
  variantCount: number;
  updatedAt: string;
}

let server: TestServer;
let token: string;
let pidCounter = 0;

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

function api<T = GroupDto>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  return server.request<T>(method, path, { token, body });
}

async function group(name: string, parentId?: number): Promise<GroupDto> {
  const res = await api('POST', '/api/group', { name, parentId });
  expect(res.status, res.text).toBe(201);
  return res.body.data as GroupDto;
}

async function getGroup(id: number): Promise<GroupDto> {
  const res = await api('GET', `/api/group/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as GroupDto;
}

async function product(masterProductId?: number): Promise<ProductDto> {
  pidCounter += 1;
  const res = await api<ProductDto>('POST', '/api/product', {
    supplierPid: `GP-${pidCounter}`,
    name: `Produkt ${pidCounter}`,
    masterProductId,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as ProductDto;
}

async function getProduct(id: number): Promise<ProductDto> {
  const res = await api<ProductDto>('GET', `/api/product/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as ProductDto;
}

async function members(groupId: number): Promise<number[]> {
  const res = await api<ProductDto[]>('GET', `/api/group/${groupId}/products`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as ProductDto[]).map((p) => p.id);
}

async function assign(groupId: number, productIds: number[]): Promise<ApiResponse> {
  return api('POST', `/api/group/${groupId}/products`, { productIds });
}

async function tree(): Promise<NodeDto> {
  const res = await api<NodeDto>('GET', '/api/group/tree');
  expect(res.status).toBe(200);
  return res.body.data as NodeDto;
}

/** Moves the test clock on and returns the new time, as the server will stamp it. */
function tick(): string {
  server.clock.advance(60_000);
  return server.clock.now().toISOString();
}

describe('assign', () => {
  it('assigns products and variants and returns the group with its true productCount', async () => {
    const g = await group('Bohrer');
    const main = await product();
    const variant = await product(main.id);
    const other = await product();
    const res = await assign(g.id, [other.id, variant.id, main.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...g, productCount: 3 } });
    expect(await getGroup(g.id)).toEqual({ ...g, productCount: 3 });
    expect(await members(g.id)).toEqual([main.id, variant.id, other.id]);
  });

  it('lists the products as full ProductDtos, the same as GET /api/product/{id}', async () => {
    const g = await group('Sägen');
    const p = await product();
    await assign(g.id, [p.id]);
    const res = await api<ProductDto[]>('GET', `/api/group/${g.id}/products`);
    expect(res.body).toEqual({ success: true, data: [await getProduct(p.id)] });
  });

  it('moves a product that is in another group: a product is in one group at most', async () => {
    const from = await group('From');
    const to = await group('To');
    const p = await product();
    const q = await product();
    await assign(from.id, [p.id, q.id]);
    const res = await assign(to.id, [p.id]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: to.id, productCount: 1 });
    expect(await members(from.id)).toEqual([q.id]);
    expect(await members(to.id)).toEqual([p.id]);
    expect((await getGroup(from.id)).productCount).toBe(1);
  });

  it('is all or nothing: one unknown product answers 404 and assigns none', async () => {
    const from = await group('From');
    const to = await group('To');
    const p = await product();
    const q = await product();
    await assign(from.id, [p.id]);
    const before = await getProduct(p.id);
    tick();
    const res = await assign(to.id, [q.id, 999_001, p.id, 999_002]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: 'Product 999001 not found',
      code: 'PRODUCT_NOT_FOUND',
    });
    expect(await members(to.id)).toEqual([]);
    expect(await members(from.id)).toEqual([p.id]);
    expect(await getProduct(p.id)).toEqual(before);
  });

  it('counts duplicate ids once and accepts an empty list', async () => {
    const g = await group('Dupes');
    const p = await product();
    const res = await assign(g.id, [p.id, p.id, p.id]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ productCount: 1 });
    const empty = await assign(g.id, []);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(await getGroup(g.id));
  });

  it('answers 404 for an unknown group and assigns nothing', async () => {
    const p = await product();
    const res = await assign(868_686, [p.id]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Group 868686 not found', code: 'GROUP_NOT_FOUND' });
    expect(await inAnyGroup(p.id)).toBe(false);
  });

  it.each([
    ['no body', undefined],
    ['missing productIds', {}],
    ['productIds not an array', { productIds: 5 }],
    ['an id as string', { productIds: ['1'] }],
    ['an id of zero', { productIds: [0] }],
    ['a fractional id', { productIds: [1.5] }],
    ['unknown field', { productIds: [], replace: true }],
  ])('answers 400 for %s', async (_case, body) => {
    const g = await group('Bad');
    const res = await api('POST', `/api/group/${g.id}/products`, body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(await getGroup(g.id)).toEqual(g);
  });
});

async function inAnyGroup(productId: number): Promise<boolean> {
  const all = await api<GroupDto[]>('GET', '/api/group');
  for (const g of all.body.data as GroupDto[]) {
    if ((await members(g.id)).includes(productId)) return true;
  }
  return false;
}

describe('the products of a group', () => {
  it('lists only the products directly in the group, not those of child groups', async () => {
    const parent = await group('Parent');
    const child = await group('Child', parent.id);
    const p = await product();
    const c = await product();
    await assign(parent.id, [p.id]);
    await assign(child.id, [c.id]);
    expect(await members(parent.id)).toEqual([p.id]);
    expect(await members(child.id)).toEqual([c.id]);
    expect((await getGroup(parent.id)).productCount).toBe(1);
  });

  it('answers 404 for an unknown group', async () => {
    const res = await api('GET', '/api/group/454545/products');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('GROUP_NOT_FOUND');
  });

  it('follows deletes of products: counts stay true', async () => {
    const g = await group('Shrinks');
    const main = await product();
    const variant = await product(main.id);
    const single = await product();
    await assign(g.id, [main.id, variant.id, single.id]);
    expect((await api('DELETE', `/api/product/${main.id}`)).status).toBe(200);
    expect(await members(g.id)).toEqual([single.id]);
    expect((await getGroup(g.id)).productCount).toBe(1);
  });
});

describe('remove', () => {
  it('removes a product from its group: it is then without group', async () => {
    const g = await group('Remove');
    const p = await product();
    const q = await product();
    await assign(g.id, [p.id, q.id]);
    const ungroupedBefore = (await tree()).productCount;
    const res = await api('DELETE', `/api/group/${g.id}/products/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await members(g.id)).toEqual([q.id]);
    expect((await getGroup(g.id)).productCount).toBe(1);
    expect((await tree()).productCount).toBe(ungroupedBefore + 1);
  });

  it('answers 404 for a product that is not in that group, leaving it where it is', async () => {
    const g = await group('Here');
    const elsewhere = await group('Elsewhere');
    const p = await product();
    const loose = await product();
    await assign(elsewhere.id, [p.id]);
    const res = await api('DELETE', `/api/group/${g.id}/products/${p.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: `Product ${p.id} is not in group ${g.id}`,
      code: 'PRODUCT_NOT_IN_GROUP',
    });
    expect(await members(elsewhere.id)).toEqual([p.id]);
    const ungrouped = await api('DELETE', `/api/group/${g.id}/products/${loose.id}`);
    expect(ungrouped.status).toBe(404);
  });

  it('answers 404 for an unknown product or group, 400 for a bad id', async () => {
    const g = await group('G');
    const p = await product();
    const unknownProduct = await api('DELETE', `/api/group/${g.id}/products/919191`);
    expect(unknownProduct.status).toBe(404);
    expect(unknownProduct.body).toEqual({
      success: false,
      error: 'Product 919191 not found',
      code: 'PRODUCT_NOT_FOUND',
    });
    const unknownGroup = await api('DELETE', `/api/group/929292/products/${p.id}`);
    expect(unknownGroup.status).toBe(404);
    expect(unknownGroup.body.code).toBe('GROUP_NOT_FOUND');
    expect((await api('DELETE', `/api/group/${g.id}/products/x`)).status).toBe(400);
  });
});

describe('delete with products', () => {
  it('ungroups the products of the whole subtree by default', async () => {
    const a = await group('A');
    const a1 = await group('A1', a.id);
    const keep = await group('Keep');
    const p = await product();
    const q = await product();
    const r = await product();
    await assign(a.id, [p.id]);
    await assign(a1.id, [q.id]);
    await assign(keep.id, [r.id]);
    const ungroupedBefore = (await tree()).productCount;

    const res = await api('DELETE', `/api/group/${a.id}?deleteProducts=false`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await getProduct(p.id)).id).toBe(p.id);
    expect((await getProduct(q.id)).id).toBe(q.id);
    expect((await tree()).productCount).toBe(ungroupedBefore + 2);
    expect(await members(keep.id)).toEqual([r.id]);
  });

  it('with deleteProducts=true deletes the products of the subtree with their variants', async () => {
    const a = await group('A');
    const a1 = await group('A1', a.id);
    const other = await group('Other');
    const main = await product();
    const variantInOther = await product(main.id);
    const loneVariantMaster = await product();
    const loneVariant = await product(loneVariantMaster.id);
    const survivor = await product();
    await assign(a.id, [main.id]);
    await assign(a1.id, [loneVariant.id]);
    await assign(other.id, [variantInOther.id, survivor.id]);
    const masterBefore = await getProduct(loneVariantMaster.id);
    expect(masterBefore.variantCount).toBe(1);
    const at = tick();

    const res = await api('DELETE', `/api/group/${a.id}?deleteProducts=true`);
    expect(res.status).toBe(200);
    for (const id of [main.id, variantInOther.id, loneVariant.id]) {
      expect((await api('GET', `/api/product/${id}`)).status, `product ${id}`).toBe(404);
    }
    for (const id of [a.id, a1.id]) expect((await api('GET', `/api/group/${id}`)).status).toBe(404);
    // The variant of a deleted main product left the other group with it; counts stay true.
    expect(await members(other.id)).toEqual([survivor.id]);
    expect((await getGroup(other.id)).productCount).toBe(1);
    // A main product outside the subtree lost its variant: it stays, touched.
    expect(await getProduct(loneVariantMaster.id)).toMatchObject({ variantCount: 0, updatedAt: at });
    expect((await getProduct(survivor.id)).updatedAt).not.toBe(at);
  });
});

describe('updatedAt of products whose membership changes', () => {
  it('touches an assigned product, and the main product of an assigned variant', async () => {
    const g = await group('Touch');
    const main = await product();
    const variant = await product(main.id);
    const bystander = await product();
    const bystanderBefore = await getProduct(bystander.id);
    const at = tick();
    await assign(g.id, [variant.id]);
    expect((await getProduct(variant.id)).updatedAt).toBe(at);
    expect((await getProduct(main.id)).updatedAt).toBe(at);
    expect(await getProduct(bystander.id)).toEqual(bystanderBefore);
  });

  it('touches a product moved between groups, but not one assigned again to its own group', async () => {
    const from = await group('From');
    const to = await group('To');
    const p = await product();
    await assign(from.id, [p.id]);
    const stamped = tick();
    await assign(to.id, [p.id]);
    expect((await getProduct(p.id)).updatedAt).toBe(stamped);
    tick();
    await assign(to.id, [p.id]);
    expect((await getProduct(p.id)).updatedAt).toBe(stamped);
  });

  it('touches a removed product and its main product', async () => {
    const g = await group('Remove');
    const main = await product();
    const variant = await product(main.id);
    await assign(g.id, [variant.id]);
    const at = tick();
    await api('DELETE', `/api/group/${g.id}/products/${variant.id}`);
    expect((await getProduct(variant.id)).updatedAt).toBe(at);
    expect((await getProduct(main.id)).updatedAt).toBe(at);
  });

  it('touches the products ungrouped by a group delete, and their main products', async () => {
    const a = await group('A');
    const a1 = await group('A1', a.id);
    const main = await product();
    const variant = await product(main.id);
    const plain = await product();
    const outside = await product();
    await assign(a1.id, [variant.id, plain.id]);
    const outsideBefore = await getProduct(outside.id);
    const at = tick();
    await api('DELETE', `/api/group/${a.id}`);
    for (const id of [variant.id, main.id, plain.id]) {
      expect((await getProduct(id)).updatedAt, `product ${id}`).toBe(at);
    }
    expect(await getProduct(outside.id)).toEqual(outsideBefore);
  });

  it('does not touch the group itself: its updatedAt follows its own fields only', async () => {
    const g = await group('Own');
    const p = await product();
    tick();
    await assign(g.id, [p.id]);
    await api('DELETE', `/api/group/${g.id}/products/${p.id}`);
    expect((await getGroup(g.id)).updatedAt).toBe(g.updatedAt);
  });

  it('does not touch products when a group is renamed or moved', async () => {
    const a = await group('A');
    const b = await group('B');
    const p = await product();
    await assign(a.id, [p.id]);
    const before = await getProduct(p.id);
    tick();
    await api('PUT', `/api/group/${a.id}`, { name: 'A2' });
    await api('POST', `/api/group/${a.id}/move`, { parentId: b.id });
    expect(await getProduct(p.id)).toEqual(before);
  });
});

describe('tree counts', () => {
  it('counts the products of each node directly, and the ungrouped ones at the root', async () => {
    const own = await startServer();
    try {
      const ownToken = await own.login();
      const call = async <T>(method: string, path: string, body?: unknown) =>
        (await own.request<T>(method, path, { token: ownToken, body })).body.data as T;
      const g = await call<GroupDto>('POST', '/api/group', { name: 'G' });
      const h = await call<GroupDto>('POST', '/api/group', { name: 'H', parentId: g.id });
      const ids: number[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await call<ProductDto>('POST', '/api/product', { supplierPid: `T-${i}` })).id);
      const variant = await call<ProductDto>('POST', '/api/product', {
        supplierPid: 'T-V',
        masterProductId: ids[0],
      });
      await call('POST', `/api/group/${g.id}/products`, { productIds: [ids[0], ids[1]] });
      await call('POST', `/api/group/${h.id}/products`, { productIds: [ids[2]] });
      const t = await call<NodeDto>('GET', '/api/group/tree');
      expect(t).toMatchObject({
        id: 0,
        productCount: 3,
        children: [{ id: g.id, productCount: 2, children: [{ id: h.id, productCount: 1, children: [] }] }],
      });
      await call('POST', `/api/group/${h.id}/products`, { productIds: [variant.id] });
      const after = await call<NodeDto>('GET', '/api/group/tree');
      expect(after.productCount).toBe(2);
      expect(after.children[0]?.children[0]?.productCount).toBe(2);
    } finally {
      await own.stop();
    }
  });
});
