import { afterEach, describe, expect, it } from 'vitest';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';
import { connectHttp, ERAS, ok, type Era } from '../helpers/mcp.js';
import { asToolError, fail, openMcpSession, type McpSession as Session } from '../helpers/mcp-session.js';

/**
 * The group tools of the agent interface, black box: a real server, data made through the tools or
 * REST, every result checked against what REST answers for the same data or the same mistake.
 */

interface ProductDto {
  id: number;
  supplierPid: string;
  name: string;
  masterProductId: number | null;
}

interface Page {
  items: ProductDto[];
  nextCursor: string | null;
}

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  // Clients first (newest first), then their servers.
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** One fresh application per test. */
function open(era: Era = 'modern'): Promise<Session> {
  return openMcpSession(cleanups, { era });
}

async function restGroup(s: Session, id: number, query = ''): Promise<GroupDto> {
  const res = await s.rest<GroupDto>('GET', `/api/group/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

async function restGroups(s: Session): Promise<GroupDto[]> {
  const res = await s.rest<GroupDto[]>('GET', '/api/group');
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

async function restTree(s: Session, query = ''): Promise<NodeDto> {
  const res = await s.rest<NodeDto>('GET', `/api/group/tree${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

async function restMembers(s: Session, groupId: number): Promise<number[]> {
  const res = await s.rest<ProductDto[]>('GET', `/api/group/${groupId}/products`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!.map((p) => p.id);
}

let pidCounter = 0;

async function product(s: Session, masterProductId?: number): Promise<ProductDto> {
  pidCounter += 1;
  const res = await s.rest<ProductDto>('POST', '/api/product', {
    supplierPid: `MG-${pidCounter}`,
    name: `Produkt ${pidCounter}`,
    masterProductId,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

function createGroup(s: Session, name: string, parentId?: number, language?: string): Promise<GroupDto> {
  return ok<GroupDto>(s.client, 'create_group', { name, parentId, language });
}

/** A tree A (1) > A1 (1.1) > A11 (1.1.1), B (2), with a product in A, one in A11, one ungrouped. */
async function sampleTree(s: Session) {
  const a = await createGroup(s, 'A');
  const a1 = await createGroup(s, 'A1', a.id);
  const a11 = await createGroup(s, 'A11', a1.id);
  const b = await createGroup(s, 'B');
  const [pa, pa11, loose] = [await product(s), await product(s), await product(s)];
  await ok(s.client, 'assign_products', { groupId: a.id, productIds: [pa.id] });
  await ok(s.client, 'assign_products', { groupId: a11.id, productIds: [pa11.id] });
  return { a, a1, a11, b, pa, pa11, loose };
}

describe('get_group_tree', () => {
  it('answers the same tree as GET /api/group/tree', async () => {
    const s = await open();
    const { a, a1, a11, b } = await sampleTree(s);
    const tree = await ok<NodeDto>(s.client, 'get_group_tree');
    expect(tree).toEqual({
      id: 0,
      groupId: '0',
      name: 'Test',
      productCount: 1,
      children: [
        {
          id: a.id,
          groupId: '1',
          name: 'A',
          productCount: 1,
          children: [
            {
              id: a1.id,
              groupId: '1.1',
              name: 'A1',
              productCount: 0,
              children: [{ id: a11.id, groupId: '1.1.1', name: 'A11', productCount: 1, children: [] }],
            },
          ],
        },
        { id: b.id, groupId: '2', name: 'B', productCount: 0, children: [] },
      ],
    });
    expect(tree).toEqual(await restTree(s));
  });

  it('answers the root alone for an empty workspace', async () => {
    const s = await open();
    expect(await ok(s.client, 'get_group_tree')).toEqual({
      id: 0,
      groupId: '0',
      name: 'Test',
      productCount: 0,
      children: [],
    });
  });

  it('with depth 0, 1, 2 leaves out the levels below it, counts unchanged', async () => {
    const s = await open();
    const { a, a1, b } = await sampleTree(s);
    const full = await restTree(s);

    expect(await ok(s.client, 'get_group_tree', { depth: 0 })).toEqual({ ...full, children: [] });

    const one = await ok<NodeDto>(s.client, 'get_group_tree', { depth: 1 });
    expect(one).toEqual({
      ...full,
      children: [
        { id: a.id, groupId: '1', name: 'A', productCount: 1, children: [] },
        { id: b.id, groupId: '2', name: 'B', productCount: 0, children: [] },
      ],
    });

    const two = await ok<NodeDto>(s.client, 'get_group_tree', { depth: 2 });
    expect(two.children[0]!.children).toEqual([
      { id: a1.id, groupId: '1.1', name: 'A1', productCount: 0, children: [] },
    ]);
    expect(two.children[1]).toEqual(one.children[1]);

    expect(await ok(s.client, 'get_group_tree', { depth: 3 })).toEqual(full);
    expect(await ok(s.client, 'get_group_tree', { depth: 1000 })).toEqual(full);
  });

  it('refuses a depth that is negative, fractional, too large or not a number', async () => {
    const s = await open();
    await sampleTree(s);
    const cases: [unknown, string][] = [
      [-1, 'depth must be >= 0'],
      [1.5, 'depth must be an integer'],
      ['1', 'depth must be an integer'],
      [null, 'depth must be an integer'],
      [1001, 'depth must be <= 1000'],
    ];
    for (const [depth, sentence] of cases) {
      expect(await fail(s.client, 'get_group_tree', { depth })).toEqual({
        error: sentence,
        code: 'VALIDATION_FAILED',
        status: 400,
      });
    }
    expect(await fail(s.client, 'get_group_tree', { levels: 1 })).toEqual({
      error: "Unknown field 'levels'",
      code: 'VALIDATION_FAILED',
      status: 400,
    });
  });

  it('names the groups in lang, as ?lang= does', async () => {
    const s = await open();
    const { a } = await sampleTree(s);
    await ok(s.client, 'rename_group', { id: a.id, name: 'A in English', language: 'eng' });
    const eng = await ok<NodeDto>(s.client, 'get_group_tree', { lang: 'eng' });
    expect(eng.children[0]!.name).toBe('A in English');
    expect(eng).toEqual(await restTree(s, '?lang=eng'));
    expect((await ok<NodeDto>(s.client, 'get_group_tree')).children[0]!.name).toBe('A');
    const bad = await fail(s.client, 'get_group_tree', { lang: 'xx' });
    expect(bad).toEqual(asToolError(await s.rest('GET', '/api/group/tree?lang=xx')));
    expect(bad.code).toBe('INVALID_LANGUAGE');
  });
});

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

describe('create_group', () => {
  it('creates a root-level group (1) and children (1.1, 1.2, 1.1.1), as REST then reads them', async () => {
    const s = await open();
    const a = await createGroup(s, 'Werkzeuge');
    const now = s.server.clock.now().toISOString();
    expect(a).toEqual({
      id: expect.any(Number) as number,
      groupId: '1',
      name: 'Werkzeuge',
      parentGroupId: null,
      childGroupCount: 0,
      productCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    expect(await restGroup(s, a.id)).toEqual(a);

    const a1 = await createGroup(s, 'Bohrer', a.id);
    const a2 = await ok<GroupDto>(s.client, 'create_group', { name: 'Sägen', parentId: a.id });
    const a11 = await createGroup(s, 'Holzbohrer', a1.id);
    const b = await ok<GroupDto>(s.client, 'create_group', { name: 'Zubehör', parentId: null });
    expect(a1).toMatchObject({ groupId: '1.1', parentGroupId: a.id, name: 'Bohrer' });
    expect(a2).toMatchObject({ groupId: '1.2', parentGroupId: a.id });
    expect(a11).toMatchObject({ groupId: '1.1.1', parentGroupId: a1.id });
    expect(b).toMatchObject({ groupId: '2', parentGroupId: null });
    expect(await restGroup(s, a.id)).toMatchObject({ childGroupCount: 2 });
    expect(await restGroups(s)).toEqual([
      { ...a, childGroupCount: 2 },
      { ...a1, childGroupCount: 1 },
      a2,
      a11,
      b,
    ]);
  });

  it('stores the name in language, and answers it in that language', async () => {
    const s = await open();
    const group = await createGroup(s, 'Power tools', undefined, 'eng');
    expect(group.name).toBe('Power tools');
    expect((await restGroup(s, group.id, '?lang=eng')).name).toBe('Power tools');
    // No name in deu: REST falls back to the first name by language code.
    expect((await restGroup(s, group.id)).name).toBe('Power tools');
    await ok(s.client, 'rename_group', { id: group.id, name: 'Elektrowerkzeuge' });
    expect((await restGroup(s, group.id)).name).toBe('Elektrowerkzeuge');
    expect((await restGroup(s, group.id, '?lang=eng')).name).toBe('Power tools');
  });

  it('answers GROUP_NOT_FOUND (404) for an unknown parentId and creates nothing', async () => {
    const s = await open();
    const a = await createGroup(s, 'A');
    const body = { name: 'Orphan', parentId: 999_999 };
    const error = await fail(s.client, 'create_group', body);
    expect(error).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
    expect(await restGroups(s)).toEqual([a]);
    // No number was used up either.
    expect((await createGroup(s, 'B')).groupId).toBe('2');
  });

  it.each([
    ['blank name', { name: '   ' }, 'name must not be empty or only white space'],
    ['empty name', { name: '' }, 'name must not be empty or only white space'],
    ['tab and newline as name', { name: '\t\n' }, 'name must not be empty or only white space'],
    ['missing name', {}, 'name is required'],
    ['name of wrong type', { name: 5 }, 'name must be a string'],
    ['name too long', { name: 'x'.repeat(257) }, 'name must be at most 256 characters'],
    ['unknown field', { name: 'X', parent: 1 }, "Unknown field 'parent'"],
    ['parentId 0', { name: 'X', parentId: 0 }, 'parentId must be >= 1'],
    ['parentId -1', { name: 'X', parentId: -1 }, 'parentId must be >= 1'],
    ['parentId 1.5', { name: 'X', parentId: 1.5 }, 'parentId must be an integer or null'],
    ['parentId as string', { name: 'X', parentId: '1' }, 'parentId must be an integer or null'],
    ['language of wrong type', { name: 'X', language: 7 }, 'language must be a string'],
  ])(
    'answers VALIDATION_FAILED (400) for %s, in the sentence REST answers',
    async (_case, body, sentence) => {
      const s = await open();
      const a = await createGroup(s, 'A');
      const error = await fail(s.client, 'create_group', body);
      expect(error).toEqual({ error: sentence, code: 'VALIDATION_FAILED', status: 400 });
      expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
      expect(await restGroups(s)).toEqual([a]);
    },
  );

  it('answers INVALID_LANGUAGE (400) for a language that is not ISO 639-2, as REST', async () => {
    const s = await open();
    const body = { name: 'X', language: 'xx' };
    const error = await fail(s.client, 'create_group', body);
    expect(error).toEqual({
      error: "language 'xx' is not an ISO 639-2 language code (for example deu, eng, fra)",
      code: 'INVALID_LANGUAGE',
      status: 400,
    });
    expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
    expect(await restGroups(s)).toEqual([]);
  });
});

describe('rename_group', () => {
  it('sets the name in one language; the other languages keep theirs', async () => {
    const s = await open();
    const group = await createGroup(s, 'Bohrer');
    s.server.clock.advance(60_000);
    const renamed = await ok<GroupDto>(s.client, 'rename_group', {
      id: group.id,
      name: 'Drills',
      language: 'eng',
    });
    expect(renamed).toEqual({ ...group, name: 'Drills', updatedAt: s.server.clock.now().toISOString() });
    expect((await restGroup(s, group.id, '?lang=eng')).name).toBe('Drills');
    expect((await restGroup(s, group.id)).name).toBe('Bohrer');

    // ger is deu; without language the workspace default (deu) is meant.
    await ok(s.client, 'rename_group', { id: group.id, name: 'Bohrwerkzeuge', language: 'GER' });
    expect((await restGroup(s, group.id)).name).toBe('Bohrwerkzeuge');
    const plain = await ok<GroupDto>(s.client, 'rename_group', { id: group.id, name: 'Bohrer & Co.' });
    expect(plain.name).toBe('Bohrer & Co.');
    expect((await restGroup(s, group.id)).name).toBe('Bohrer & Co.');
    expect((await restGroup(s, group.id, '?lang=eng')).name).toBe('Drills');
  });

  it('answers GROUP_NOT_FOUND for an unknown group and VALIDATION_FAILED for a blank name, as REST', async () => {
    const s = await open();
    const group = await createGroup(s, 'Bohrer');
    const unknown = await fail(s.client, 'rename_group', { id: 999_999, name: 'X' });
    expect(unknown).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect(unknown).toEqual(asToolError(await s.rest('PUT', '/api/group/999999', { name: 'X' })));

    const blank = await fail(s.client, 'rename_group', { id: group.id, name: ' ' });
    expect(blank).toEqual({
      error: 'name must not be empty or only white space',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(blank).toEqual(asToolError(await s.rest('PUT', `/api/group/${group.id}`, { name: ' ' })));
    expect(await restGroup(s, group.id)).toEqual(group);
  });

  it.each([
    [0, 'id must be >= 1'],
    [-1, 'id must be >= 1'],
    [1.5, 'id must be an integer'],
    ['1', 'id must be an integer'],
  ])('answers VALIDATION_FAILED for id %j', async (id, sentence) => {
    const s = await open();
    const group = await createGroup(s, 'Bohrer');
    expect(await fail(s.client, 'rename_group', { id, name: 'X' })).toEqual({
      error: sentence,
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(await fail(s.client, 'rename_group', { name: 'X' })).toEqual({
      error: 'id is required',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect(await restGroup(s, group.id)).toEqual(group);
  });
});

describe('move_group', () => {
  it('moves a group with its subtree to the root level with parentId null, renumbering it', async () => {
    const s = await open();
    const { a, a1, a11, pa11 } = await sampleTree(s);
    const moved = await ok<GroupDto>(s.client, 'move_group', { id: a1.id, parentId: null });
    expect(moved).toMatchObject({ id: a1.id, groupId: '3', parentGroupId: null, childGroupCount: 1 });
    expect(await restGroup(s, a1.id)).toEqual(moved);
    expect(await restGroup(s, a11.id)).toMatchObject({ groupId: '3.1', parentGroupId: a1.id });
    expect(await restGroup(s, a.id)).toMatchObject({ groupId: '1', childGroupCount: 0 });
    expect(await restMembers(s, a11.id)).toEqual([pa11.id]);
    const tree = await restTree(s);
    expect(tree.children.map((n) => [n.groupId, n.name])).toEqual([
      ['1', 'A'],
      ['3', 'A1'],
      ['2', 'B'],
    ]);
  });

  it('moves a group under another group', async () => {
    const s = await open();
    const { a1, a11, b } = await sampleTree(s);
    const moved = await ok<GroupDto>(s.client, 'move_group', { id: a1.id, parentId: b.id });
    expect(moved).toMatchObject({ groupId: '2.1', parentGroupId: b.id });
    expect(await restGroup(s, a11.id)).toMatchObject({ groupId: '2.1.1' });
    expect(await restGroup(s, b.id)).toMatchObject({ childGroupCount: 1 });
  });

  it('answers GROUP_MOVE_CYCLE (400) under its own descendant or itself, and nothing changes', async () => {
    const s = await open();
    const { a, a1, a11 } = await sampleTree(s);
    const before = await restTree(s);
    const groupsBefore = await restGroups(s);

    const descendant = await fail(s.client, 'move_group', { id: a.id, parentId: a11.id });
    expect(descendant).toEqual({
      error: `Group ${a.id} cannot be moved under its descendant, group ${a11.id}`,
      code: 'GROUP_MOVE_CYCLE',
      status: 400,
    });
    expect(await restTree(s)).toEqual(before);

    const child = await fail(s.client, 'move_group', { id: a.id, parentId: a1.id });
    expect(child.code).toBe('GROUP_MOVE_CYCLE');
    expect(await restTree(s)).toEqual(before);

    const itself = await fail(s.client, 'move_group', { id: a1.id, parentId: a1.id });
    expect(itself).toEqual({
      error: `Group ${a1.id} cannot be moved under itself`,
      code: 'GROUP_MOVE_CYCLE',
      status: 400,
    });
    expect(await restTree(s)).toEqual(before);
    expect(await restGroups(s)).toEqual(groupsBefore);

    expect(descendant).toEqual(
      asToolError(await s.rest('POST', `/api/group/${a.id}/move`, { parentId: a11.id })),
    );
    expect(await restTree(s)).toEqual(before);
  });

  it('answers 404 for an unknown group or parent and 400 without parentId, as REST', async () => {
    const s = await open();
    const { a } = await sampleTree(s);
    const before = await restTree(s);
    const parent = await fail(s.client, 'move_group', { id: a.id, parentId: 999_999 });
    expect(parent).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect(parent).toEqual(
      asToolError(await s.rest('POST', `/api/group/${a.id}/move`, { parentId: 999_999 })),
    );
    const group = await fail(s.client, 'move_group', { id: 999_999, parentId: null });
    expect(group).toEqual(parent);
    const missing = await fail(s.client, 'move_group', { id: a.id });
    expect(missing).toEqual({ error: 'parentId is required', code: 'VALIDATION_FAILED', status: 400 });
    expect(missing).toEqual(asToolError(await s.rest('POST', `/api/group/${a.id}/move`, {})));
    expect(await restTree(s)).toEqual(before);
  });
});

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
    const args = { groupId: b.id, productIds: [fresh.id, 999_999, pa.id] };
    const error = await fail(s.client, 'assign_products', args);
    expect(error).toEqual({ error: 'Product 999999 not found', code: 'PRODUCT_NOT_FOUND', status: 404 });
    expect(await restMembers(s, b.id)).toEqual([]);
    expect(await restMembers(s, a.id)).toEqual([pa.id]);
    expect((await restTree(s)).productCount).toBe(2);
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
    expect(await ok(s.client, 'unassign_product', { groupId: a.id, productId: pa.id })).toEqual({
      groupId: a.id,
      productId: pa.id,
    });
    expect(await restMembers(s, a.id)).toEqual([]);
    expect((await restTree(s)).productCount).toBe(2);
  });

  it('answers PRODUCT_NOT_IN_GROUP (404) for a product in another group or in none, leaving it there', async () => {
    const s = await open();
    const { a, b, pa, loose } = await sampleTree(s);
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
    expect((await restTree(s)).productCount).toBe(1);
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

describe('tools and REST see the same catalogue', () => {
  it('each change made by a tool is visible through REST in the very next request', async () => {
    const s = await open();
    const p = await product(s);

    const a = await createGroup(s, 'A');
    expect(await restGroup(s, a.id)).toEqual(a);
    const b = await createGroup(s, 'B', a.id);
    expect((await restTree(s)).children[0]!.children.map((n) => n.id)).toEqual([b.id]);

    await ok(s.client, 'rename_group', { id: b.id, name: 'B renamed' });
    expect((await restGroup(s, b.id)).name).toBe('B renamed');

    await ok(s.client, 'move_group', { id: b.id, parentId: null });
    expect((await restGroup(s, b.id)).parentGroupId).toBeNull();

    await ok(s.client, 'assign_products', { groupId: b.id, productIds: [p.id] });
    expect(await restMembers(s, b.id)).toEqual([p.id]);

    await ok(s.client, 'unassign_product', { groupId: b.id, productId: p.id });
    expect(await restMembers(s, b.id)).toEqual([]);

    await ok(s.client, 'delete_group', { id: b.id });
    expect((await s.rest('GET', `/api/group/${b.id}`)).status).toBe(404);
  });

  it('each change made through REST is visible through the tools in the very next call', async () => {
    const s = await open();
    const p = await product(s);

    const created = await s.rest<GroupDto>('POST', '/api/group', { name: 'Rest' });
    expect(created.status).toBe(201);
    const id = created.body.data!.id;
    expect((await ok<NodeDto>(s.client, 'get_group_tree')).children).toEqual([
      { id, groupId: '1', name: 'Rest', productCount: 0, children: [] },
    ]);

    expect((await s.rest('PUT', `/api/group/${id}`, { name: 'Rest renamed' })).status).toBe(200);
    expect((await ok<NodeDto>(s.client, 'get_group_tree')).children[0]!.name).toBe('Rest renamed');

    expect((await s.rest('POST', `/api/group/${id}/products`, { productIds: [p.id] })).status).toBe(200);
    const page = await ok<Page>(s.client, 'list_group_products', { groupId: id });
    expect(page.items.map((item) => item.id)).toEqual([p.id]);

    expect((await s.rest('DELETE', `/api/group/${id}/products/${p.id}`)).status).toBe(200);
    expect((await ok<Page>(s.client, 'list_group_products', { groupId: id })).items).toEqual([]);

    expect((await s.rest('DELETE', `/api/group/${id}`)).status).toBe(200);
    expect((await fail(s.client, 'list_group_products', { groupId: id })).code).toBe('GROUP_NOT_FOUND');
    expect((await ok<NodeDto>(s.client, 'get_group_tree')).children).toEqual([]);
  });

  it.each(ERAS)('works alike over the %s protocol era', async (era) => {
    const s = await open(era);
    const a = await createGroup(s, 'A');
    expect(await restGroup(s, a.id)).toEqual(a);
    expect((await ok<NodeDto>(s.client, 'get_group_tree')).children).toHaveLength(1);
    expect(await fail(s.client, 'move_group', { id: a.id, parentId: a.id })).toMatchObject({
      code: 'GROUP_MOVE_CYCLE',
      status: 400,
    });
  });

  it('refuses the group changes to a VIEWER with FORBIDDEN (403), reads allowed', async () => {
    const s = await open();
    const a = await createGroup(s, 'A');
    await s.server.addUser('v', 'VIEWER');
    const viewerToken = await s.server.login('v', 'v-password');
    const viewer = await connectHttp(s.server.baseUrl, viewerToken);
    cleanups.push(() => viewer.close());
    const listed = (await viewer.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('get_group_tree');
    expect(listed).not.toContain('create_group');
    const sentence = "Role VIEWER lacks the right 'Bearbeiten' this operation needs";
    for (const [name, args] of [
      ['create_group', { name: 'X' }],
      ['rename_group', { id: a.id, name: 'X' }],
      ['move_group', { id: a.id, parentId: null }],
      ['delete_group', { id: a.id }],
    ] as const) {
      expect(await fail(viewer, name, args)).toEqual({ error: sentence, code: 'FORBIDDEN', status: 403 });
    }
    expect(await restGroups(s)).toEqual([a]);
    expect((await ok<NodeDto>(viewer, 'get_group_tree')).children).toHaveLength(1);
  });
});
