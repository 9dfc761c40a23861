import { describe, expect, it } from 'vitest';
import type { NodeDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerTest, asToolError, fail } from '../helpers/mcp-session.js';
import { restTree, sampleTree } from './group-tools.fixtures.js';

/** The group tool get_group_tree, black box: every tree checked against GET /api/group/tree. */

/** One fresh application per test. */
const { open } = sessionPerTest();

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
