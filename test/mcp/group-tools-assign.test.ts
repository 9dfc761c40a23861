import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import {
  createGroup,
  product,
  restGroup,
  restMembers,
  restTree,
  sampleTree,
} from './group-tools.fixtures.js';

/** The group tools assign_products and unassign_product, black box: membership as REST reads it. */

/**
 * One application for the file: each test checks its own groups' members; the root's productCount
 * (the products in no group, of every test) is compared before and after the test's own call.
 */
const { open } = sessionPerFile();

/** The products in no group, as the tree's root counts them. */
const ungrouped = async (s: Parameters<typeof restTree>[0]) => (await restTree(s)).productCount;

describe('assign_products', () => {
  it('puts products and variants into a group and answers the group with its productCount', async () => {
    const s = await open();
    const group = await createGroup(s, 'G');
    const p1 = await product(s);
    const p2 = await product(s);
    const v = await product(s, p1.id);
    const answer = await ok<GroupDto>(s.client, 'assign_products', {
      groupId: group.id,
      productIds: [v.id, p1.id, p2.id, p1.id],
    });
    expect(answer).toEqual({ ...group, productCount: 3 });
    expect(await restGroup(s, group.id)).toEqual(answer);
    expect(await restMembers(s, group.id)).toEqual([p1.id, p2.id, v.id]);
  });

  it('moves a product that is in another group', async () => {
    const s = await open();
    const { a, b, pa } = await sampleTree(s);
    await ok(s.client, 'assign_products', { groupId: b.id, productIds: [pa.id] });
    expect(await restMembers(s, a.id)).toEqual([]);
    expect(await restMembers(s, b.id)).toEqual([pa.id]);
  });

  it('is all or nothing: one unknown id answers PRODUCT_NOT_FOUND (404) and assigns none', async () => {
    const s = await open();
    const { a, b, pa } = await sampleTree(s);
    const fresh = await product(s);
    const loose = await ungrouped(s);
    const args = { groupId: b.id, productIds: [fresh.id, 999_999, pa.id] };
    const error = await fail(s.client, 'assign_products', args);
    expect(error).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(await restMembers(s, b.id)).toEqual([]);
    expect(await restMembers(s, a.id)).toEqual([pa.id]);
    expect(await ungrouped(s)).toBe(loose);
    expect(error).toEqual(
      asToolError(await s.rest('POST', `/api/group/${b.id}/products`, { productIds: args.productIds })),
    );
    expect(await restMembers(s, b.id)).toEqual([]);
  });

  it('answers GROUP_NOT_FOUND for an unknown group and VALIDATION_FAILED for bad ids', async () => {
    const s = await open();
    const p = await product(s);
    const group = await fail(s.client, 'assign_products', { groupId: 999_999, productIds: [p.id] });
    expect(group).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    const g = await createGroup(s, 'G');
    for (const [productIds, sentence] of [
      [[0], 'productIds[0] must be >= 1'],
      [[p.id, 1.5], 'productIds[1] must be an integer'],
    ] as const) {
      const error = await fail(s.client, 'assign_products', { groupId: g.id, productIds });
      expect(error).toEqual({ error: sentence, code: 'VALIDATION_FAILED', status: 400 });
      expect(error).toEqual(asToolError(await s.rest('POST', `/api/group/${g.id}/products`, { productIds })));
    }
    expect(await restMembers(s, g.id)).toEqual([]);
  });

  it('answers "productIds must be an array" for productIds that is no array, as REST', async () => {
    const s = await open();
    const g = await createGroup(s, 'G');
    const error = await fail(s.client, 'assign_products', { groupId: g.id, productIds: '1' });
    expect(error).toEqual(
      asToolError(await s.rest('POST', `/api/group/${g.id}/products`, { productIds: '1' })),
    );
    expect(await restMembers(s, g.id)).toEqual([]);
    // The domain says "must be an array" (text.rules.ts); the schema validator must say it alike.
    expect(error).toEqual({ error: 'productIds must be an array', code: 'VALIDATION_FAILED', status: 400 });
  });
});

describe('unassign_product', () => {
  it('takes a product out of its group: it is then without group', async () => {
    const s = await open();
    const { a, pa } = await sampleTree(s);
    const loose = await ungrouped(s);
    expect(await ok(s.client, 'unassign_product', { groupId: a.id, productId: pa.id })).toEqual({
      groupId: a.id,
      productId: pa.id,
    });
    expect(await restMembers(s, a.id)).toEqual([]);
    expect(await ungrouped(s)).toBe(loose + 1);
  });

  it('answers PRODUCT_NOT_IN_GROUP (404) for a product in another group or in none, leaving it there', async () => {
    const s = await open();
    const { a, b, pa, loose } = await sampleTree(s);
    const before = await ungrouped(s);
    const other = await fail(s.client, 'unassign_product', { groupId: b.id, productId: pa.id });
    expect(other).toEqual({
      error: `Product ${pa.id} is not in group ${b.id}`,
      code: 'PRODUCT_NOT_IN_GROUP',
      status: 404,
    });
    expect(await restMembers(s, a.id)).toEqual([pa.id]);
    const none = await fail(s.client, 'unassign_product', { groupId: a.id, productId: loose.id });
    expect(none.code).toBe('PRODUCT_NOT_IN_GROUP');
    expect(other).toEqual(asToolError(await s.rest('DELETE', `/api/group/${b.id}/products/${pa.id}`)));
    expect(await restMembers(s, a.id)).toEqual([pa.id]);
    expect(await ungrouped(s)).toBe(before);
  });

  it('answers PRODUCT_NOT_FOUND and GROUP_NOT_FOUND for unknown ids, as REST', async () => {
    const s = await open();
    const { a } = await sampleTree(s);
    const product404 = await fail(s.client, 'unassign_product', { groupId: a.id, productId: 999_999 });
    expect(product404).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(product404).toEqual(asToolError(await s.rest('DELETE', `/api/group/${a.id}/products/999999`)));
    const group404 = await fail(s.client, 'unassign_product', { groupId: 999_999, productId: 1 });
    expect(group404).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
  });
});
