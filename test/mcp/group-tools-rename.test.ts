import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import { ok } from '../helpers/mcp.js';
import { sessionPerFile, asToolError, fail } from '../helpers/mcp-session.js';
import { createGroup, restGroup } from './group-tools.fixtures.js';

/** The group tool rename_group, black box: names per language, and the errors REST answers. */

/** One application for the file: each test renames its own groups. */
const { open } = sessionPerFile();

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
      error: 'name must not be empty or only white space or invisible characters',
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
    // Group 1, which a '1' taken as a number or 1.5 rounded would rename, stays as it was too.
    const group1 = await restGroup(s, 1);
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
    expect(await restGroup(s, 1)).toEqual(group1);
  });
});
