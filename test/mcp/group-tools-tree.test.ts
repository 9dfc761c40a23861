import { describe, expect, it } from 'vitest';
import type { NodeDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { restTree, sampleTree } from './group-tools.fixtures.js';

/** The group tool get_group_tree, black box: every tree checked against GET /api/group/tree. */

/**
 * One application for the file: each test finds its own groups in the tree, which it compares whole
 * with REST's at the same moment; the empty workspace's tree takes an application of its own.
 */
const { open, fresh } = sessionPerFile();

/** The test's own nodes among the root's children, in the tree's order. */
const own = (tree: NodeDto, ...groups: { id: number }[]) =>
  tree.children.filter((n) => groups.some((g) => g.id === n.id));

describe('get_group_tree', () => {
  it('answers the same tree as GET /api/group/tree', async () => {
    const s = await open();
    const before = await restTree(s);
    const { a, a1, a11, b } = await sampleTree(s);
    const tree = await ok<NodeDto>(s.client, 'get_group_tree');
    // The root counts the products in no group: the sample's loose one more than before.
    expect(tree).toMatchObject({ id: 0, groupId: '0', name: 'Test', productCount: before.productCount + 1 });
    expect(own(tree, a, b)).toEqual([
      {
        id: a.id,
        groupId: a.groupId,
        name: 'A',
        productCount: 1,
        children: [
          {
            id: a1.id,
            groupId: `${a.groupId}.1`,
            name: 'A1',
            productCount: 0,
            children: [
              { id: a11.id, groupId: `${a.groupId}.1.1`, name: 'A11', productCount: 1, children: [] },
            ],
          },
        ],
      },
      { id: b.id, groupId: String(Number(a.groupId) + 1), name: 'B', productCount: 0, children: [] },
    ]);
    expect(tree).toEqual(await restTree(s));
  });

  it('answers the root alone for an empty workspace', async () => {
    // Its own application: an empty workspace.
    const s = await fresh();
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
      children: full.children.map((n) => ({ ...n, children: [] })),
    });
    expect(own(one, a, b)).toEqual([
      { id: a.id, groupId: a.groupId, name: 'A', productCount: 1, children: [] },
      { id: b.id, groupId: b.groupId, name: 'B', productCount: 0, children: [] },
    ]);

    const two = await ok<NodeDto>(s.client, 'get_group_tree', { depth: 2 });
    const [twoA, twoB] = own(two, a, b);
    expect(twoA!.children).toEqual([
      { id: a1.id, groupId: `${a.groupId}.1`, name: 'A1', productCount: 0, children: [] },
    ]);
    expect(twoB).toEqual(own(one, b)[0]);

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
    expect(own(eng, a)[0]!.name).toBe('A in English');
    expect(eng).toEqual(await restTree(s, '?lang=eng'));
    expect(own(await ok<NodeDto>(s.client, 'get_group_tree'), a)[0]!.name).toBe('A');
    const bad = await fail(s.client, 'get_group_tree', { lang: 'xx' });
    expect(bad).toEqual(asToolError(await s.rest('GET', '/api/group/tree?lang=xx')));
    expect(bad.code).toBe('INVALID_LANGUAGE');
  });
});
