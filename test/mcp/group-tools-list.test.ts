import { describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { createGroup, product, type Page, type ProductDto } from './group-tools.fixtures.js';

/** The group tool list_group_products, black box: paging, and the answers REST gives. */

/** One application for the file: each test lists its own groups. */
const { open } = sessionPerFile();

describe('list_group_products', () => {
  it('pages with limit and cursor until nextCursor is null: every product exactly once, by id', async () => {
    const s = await open();
    const group = await createGroup(s, 'Paged');
    const child = await createGroup(s, 'Child', group.id);
    const mains = [];
    for (let i = 0; i < 6; i++) mains.push(await product(s));
    const variant = await product(s, mains[0]!.id);
    const inChild = await product(s);
    await product(s); // ungrouped
    const expected = [...mains.map((p) => p.id), variant.id].sort((x, y) => x - y);
    await ok(s.client, 'assign_products', { groupId: group.id, productIds: [...expected].reverse() });
    await ok(s.client, 'assign_products', { groupId: child.id, productIds: [inChild.id] });

    for (const limit of [1, 2, 3, 7, 8, 500]) {
      const seen: ProductDto[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (let pages = 0; ; pages++) {
        expect(pages, `limit ${limit}: too many pages`).toBeLessThanOrEqual(expected.length + 1);
        const page = await ok<Page>(s.client, 'list_group_products', {
          groupId: group.id,
          limit,
          ...(cursor === undefined ? {} : { cursor }),
        });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        sizes.push(page.items.length);
        seen.push(...page.items);
        if (page.nextCursor === null) break;
        expect(typeof page.nextCursor).toBe('string');
        cursor = page.nextCursor;
      }
      expect(
        seen.map((p) => p.id),
        `limit ${limit}`,
      ).toEqual(expected);
      expect(sizes.slice(0, -1).every((n) => n === limit)).toBe(true);
    }

    // The same ProductDtos as REST, the variant included, the child group's product not.
    const rest = await s.rest<ProductDto[]>('GET', `/api/group/${group.id}/products`);
    const all = await ok<Page>(s.client, 'list_group_products', { groupId: group.id });
    expect(all).toEqual({ items: rest.body.data, nextCursor: null });
    expect(all.items.find((p) => p.id === variant.id)!.masterProductId).toBe(mains[0]!.id);
  });

  it('answers an empty last page for an empty group', async () => {
    const s = await open();
    const group = await createGroup(s, 'Empty');
    expect(await ok(s.client, 'list_group_products', { groupId: group.id })).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('answers GROUP_NOT_FOUND (404) for an unknown group, with REST sentence', async () => {
    const s = await open();
    await createGroup(s, 'Some');
    const error = await fail(s.client, 'list_group_products', { groupId: 999_999 });
    expect(error).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect(error).toEqual(asToolError(await s.rest('GET', '/api/group/999999/products')));
  });

  it('refuses a cursor that is not one of this list, and a limit out of range', async () => {
    const s = await open();
    const group = await createGroup(s, 'G');
    const cursorError = await fail(s.client, 'list_group_products', {
      groupId: group.id,
      cursor: 'not-a-cursor',
    });
    expect(cursorError).toMatchObject({ code: 'INVALID_CURSOR', status: 400 });
    expect(cursorError.error).toContain('not-a-cursor');
    for (const [limit, sentence] of [
      [0, 'limit must be >= 1'],
      [501, 'limit must be <= 500'],
      [2.5, 'limit must be an integer'],
    ] as const) {
      expect(await fail(s.client, 'list_group_products', { groupId: group.id, limit })).toEqual({
        error: sentence,
        code: 'VALIDATION_FAILED',
        status: 400,
      });
    }
  });
});
