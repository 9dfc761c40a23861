import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { createGroup, restGroup, restGroups } from './group-tools.fixtures.js';

/** The group tool create_group, black box: numbering, names per language, and the errors REST answers. */

/**
 * One application for the file: each test checks its own groups, and that a refused call creates
 * nothing by comparing the whole list before and after it (tests of a file run one at a time).
 */
const { open } = sessionPerFile();

/** The number a root-level group created after `group` takes. */
const nextRoot = (group: GroupDto) => String(Number(group.groupId) + 1);

describe('create_group', () => {
  it('creates a root-level group (1) and children (1.1, 1.2, 1.1.1), as REST then reads them', async () => {
    const s = await open();
    const before = await restGroups(s);
    const a = await createGroup(s, 'Werkzeuge');
    const now = s.server.clock.now().toISOString();
    // The next free number at the root: 1 in an empty workspace.
    const rootNumbers = before.filter((g) => g.parentGroupId === null).map((g) => Number(g.groupId));
    expect(a).toEqual({
      id: expect.any(Number) as number,
      groupId: String(Math.max(0, ...rootNumbers) + 1),
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
    expect(a1).toMatchObject({ groupId: `${a.groupId}.1`, parentGroupId: a.id, name: 'Bohrer' });
    expect(a2).toMatchObject({ groupId: `${a.groupId}.2`, parentGroupId: a.id });
    expect(a11).toMatchObject({ groupId: `${a.groupId}.1.1`, parentGroupId: a1.id });
    expect(b).toMatchObject({ groupId: nextRoot(a), parentGroupId: null });
    expect(await restGroup(s, a.id)).toMatchObject({ childGroupCount: 2 });
    expect(await restGroups(s)).toEqual([
      ...before,
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
    const before = await restGroups(s);
    const body = { name: 'Orphan', parentId: 999_999 };
    const error = await fail(s.client, 'create_group', body);
    expect(error).toEqual({ error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
    expect(await restGroups(s)).toEqual(before);
    // No number was used up either.
    expect((await createGroup(s, 'B')).groupId).toBe(nextRoot(a));
  });

  it.each([
    ['blank name', { name: '   ' }, 'name must not be empty or only white space or invisible characters'],
    ['empty name', { name: '' }, 'name must not be empty or only white space or invisible characters'],
    [
      'tab and newline as name',
      { name: '\t\n' },
      'name must not be empty or only white space or invisible characters',
    ],
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
      const before = await restGroups(s);
      expect(before).toContainEqual(a);
      const error = await fail(s.client, 'create_group', body);
      expect(error).toEqual({ error: sentence, code: 'VALIDATION_FAILED', status: 400 });
      expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
      expect(await restGroups(s)).toEqual(before);
    },
  );

  it('answers INVALID_LANGUAGE (400) for a language that is not ISO 639-2, as REST', async () => {
    const s = await open();
    const before = await restGroups(s);
    const body = { name: 'X', language: 'xx' };
    const error = await fail(s.client, 'create_group', body);
    expect(error).toEqual({
      error: "language 'xx' is not an ISO 639-2 language code (for example deu, eng, fra)",
      code: 'INVALID_LANGUAGE',
      status: 400,
    });
    expect(error).toEqual(asToolError(await s.rest('POST', '/api/group', body)));
    expect(await restGroups(s)).toEqual(before);
  });
});
