import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcp.js';
import { sessionPerTest, asToolError, fail } from '../helpers/mcp-session.js';
import { product, restGroups, restMembers, restTree, sampleTree } from './group-tools.fixtures.js';

/** The group tool delete_group, black box: the subtree, its products with and without deleteProducts. */

/** One fresh application per test. */
const { open } = sessionPerTest();

describe('delete_group', () => {
  it('deletes the group with its subtree; its products are only ungrouped', async () => {
    const s = await open();
    const { a, a1, a11, b, pa, pa11, loose } = await sampleTree(s);
    expect(await ok(s.client, 'delete_group', { id: a.id })).toEqual({
      deletedId: a.id,
      deleteProducts: false,
    });
    for (const id of [a.id, a1.id, a11.id]) {
      expect((await s.rest('GET', `/api/group/${id}`)).body.code).toBe('GROUP_NOT_FOUND');
    }
    expect((await restGroups(s)).map((g) => g.id)).toEqual([b.id]);
    for (const p of [pa, pa11, loose]) expect((await s.rest('GET', `/api/product/${p.id}`)).status).toBe(200);
    expect(await restTree(s)).toMatchObject({ productCount: 3, children: [{ id: b.id }] });
  });

  it('with deleteProducts true deletes the products of the subtree with their variants', async () => {
    const s = await open();
    const { a, b, pa, pa11, loose } = await sampleTree(s);
    const variant = await product(s, loose.id);
    const variantOfGrouped = await product(s, pa.id);
    await ok(s.client, 'assign_products', { groupId: b.id, productIds: [variant.id] });
    expect(await ok(s.client, 'delete_group', { id: a.id, deleteProducts: true })).toEqual({
      deletedId: a.id,
      deleteProducts: true,
    });
    for (const p of [pa, pa11, variantOfGrouped]) {
      const res = await s.rest('GET', `/api/product/${p.id}`);
      expect(res.status, `product ${p.id}`).toBe(404);
      expect(res.body.code).toBe('PRODUCT_NOT_FOUND');
    }
    expect((await s.rest('GET', `/api/product/${loose.id}`)).status).toBe(200);
    expect(await restMembers(s, b.id)).toEqual([variant.id]);
    expect((await restGroups(s)).map((g) => g.id)).toEqual([b.id]);
  });

  it('with deleteProducts false only ungroups, and answers GROUP_NOT_FOUND for an unknown group', async () => {
    const s = await open();
    const { a, pa } = await sampleTree(s);
    expect(await ok(s.client, 'delete_group', { id: a.id, deleteProducts: false })).toEqual({
      deletedId: a.id,
      deleteProducts: false,
    });
    expect((await s.rest('GET', `/api/product/${pa.id}`)).status).toBe(200);
    const error = await fail(s.client, 'delete_group', { id: a.id });
    expect(error).toEqual({ error: `Group ${a.id} not found`, code: 'GROUP_NOT_FOUND', status: 404 });
    expect(error).toEqual(asToolError(await s.rest('DELETE', `/api/group/${a.id}`)));
    expect(await fail(s.client, 'delete_group', { id: 1, deleteProducts: 'yes' })).toEqual({
      error: 'deleteProducts must be a boolean',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
  });
});
