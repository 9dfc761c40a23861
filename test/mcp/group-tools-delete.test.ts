import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { product, restGroups, restMembers, restTree, sampleTree } from './group-tools.fixtures.js';

/** The group tool delete_group, black box: the subtree, its products with and without deleteProducts. */

/**
 * One application for the file: each test checks what is left of its own groups, and the root's
 * productCount (the products in no group, of every test) before and after its own deletion.
 */
const { open } = sessionPerFile();

const ownGroups = async (s: Parameters<typeof restGroups>[0], ids: number[]) =>
  (await restGroups(s)).map((g) => g.id).filter((id) => ids.includes(id));

describe('delete_group', () => {
  it('deletes the group with its subtree; its products are only ungrouped', async () => {
    const s = await open();
    const { a, a1, a11, b, pa, pa11, loose } = await sampleTree(s);
    const ungrouped = (await restTree(s)).productCount;
    expect(await ok(s.client, 'delete_group', { id: a.id })).toEqual({
      deletedId: a.id,
      deleteProducts: false,
    });
    for (const id of [a.id, a1.id, a11.id]) {
      expect((await s.rest('GET', `/api/group/${id}`)).body.code).toBe('GROUP_NOT_FOUND');
    }
    expect(await ownGroups(s, [a.id, a1.id, a11.id, b.id])).toEqual([b.id]);
    for (const p of [pa, pa11, loose]) expect((await s.rest('GET', `/api/product/${p.id}`)).status).toBe(200);
    const tree = await restTree(s);
    expect(tree.productCount).toBe(ungrouped + 2);
    expect(tree.children.map((n) => n.id)).toContain(b.id);
    expect(tree.children.map((n) => n.id)).not.toContain(a.id);
  });

  it('with deleteProducts true deletes the products of the subtree with their variants', async () => {
    const s = await open();
    const { a, a1, a11, b, pa, pa11, loose } = await sampleTree(s);
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
    expect(await ownGroups(s, [a.id, a1.id, a11.id, b.id])).toEqual([b.id]);
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
