import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { restGroup, restGroups, restMembers, restTree, sampleTree } from './group-tools.fixtures.js';

/** The group tool move_group, black box: renumbering, cycles, and the errors REST answers. */

/**
 * One application for the file: each test moves its own groups, numbered after those of the tests
 * before it; a refused move compares the whole tree before and after (tests of a file run one at a
 * time).
 */
const { open } = sessionPerFile();

/** The number of the root-level group after `group`. */
const nextRoot = (group: GroupDto) => String(Number(group.groupId) + 1);

describe('move_group', () => {
  it('moves a group with its subtree to the root level with parentId null, renumbering it', async () => {
    const s = await open();
    const { a, a1, a11, b, pa11 } = await sampleTree(s);
    // B is the last group at the root level: A1 comes after it (3 after A 1 and B 2 in an empty workspace).
    const last = nextRoot(b);
    const moved = await ok<GroupDto>(s.client, 'move_group', { id: a1.id, parentId: null });
    expect(moved).toMatchObject({ id: a1.id, groupId: last, parentGroupId: null, childGroupCount: 1 });
    expect(await restGroup(s, a1.id)).toEqual(moved);
    expect(await restGroup(s, a11.id)).toMatchObject({ groupId: `${last}.1`, parentGroupId: a1.id });
    expect(await restGroup(s, a.id)).toMatchObject({ groupId: a.groupId, childGroupCount: 0 });
    expect(await restMembers(s, a11.id)).toEqual([pa11.id]);
    const tree = await restTree(s);
    const own = [a.id, a1.id, b.id];
    expect(tree.children.filter((n) => own.includes(n.id)).map((n) => [n.groupId, n.name])).toEqual([
      [a.groupId, 'A'],
      [last, 'A1'],
      [b.groupId, 'B'],
    ]);
  });

  it('moves a group under another group', async () => {
    const s = await open();
    const { a1, a11, b } = await sampleTree(s);
    const moved = await ok<GroupDto>(s.client, 'move_group', { id: a1.id, parentId: b.id });
    expect(moved).toMatchObject({ groupId: `${b.groupId}.1`, parentGroupId: b.id });
    expect(await restGroup(s, a11.id)).toMatchObject({ groupId: `${b.groupId}.1.1` });
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
