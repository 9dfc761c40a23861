import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';
import { groupRest } from './groups.fixtures.js';

/** Group names over REST: per language with fallbacks, and renaming. */

const file = serverPerFile();

const { api, create, get } = groupRest(file);

describe('names per language', () => {
  it('stores the name in the default language and answers in ?lang= with the fallbacks', async () => {
    const group = await create('Schrauben');
    const renamed = await api('PUT', `/api/group/${group.id}`, { name: 'Screws', language: 'eng' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({ ...group, name: 'Screws' });

    expect((await get(group.id)).name).toBe('Schrauben');
    expect((await get(group.id, '?lang=eng')).name).toBe('Screws');
    expect((await get(group.id, '?lang=ENG')).name).toBe('Screws');
    // No French name: the workspace default language (deu).
    expect((await get(group.id, '?lang=fre')).name).toBe('Schrauben');
  });

  it('reads /B codes as /T codes (ger is deu)', async () => {
    const group = await create('Dübel', null, 'ger');
    expect(group.name).toBe('Dübel');
    expect((await get(group.id, '?lang=deu')).name).toBe('Dübel');
  });

  it('falls back to the first name by language code when the default language has none', async () => {
    const group = await create('Vis', null, 'fra');
    expect(group.name).toBe('Vis');
    expect((await get(group.id)).name).toBe('Vis');
    await api('PUT', `/api/group/${group.id}`, { name: 'Screw', language: 'eng' });
    // eng sorts before fra.
    expect((await get(group.id)).name).toBe('Screw');
    expect((await get(group.id, '?lang=fra')).name).toBe('Vis');
  });

  it('uses ?lang= in the list and the tree', async () => {
    const group = await create('Handschuhe');
    await api('PUT', `/api/group/${group.id}`, { name: 'Gloves', language: 'eng' });
    const listed = await api<GroupDto[]>('GET', '/api/group?lang=eng');
    expect(listed.body.data?.find((g) => g.id === group.id)?.name).toBe('Gloves');
    const tree = await api<NodeDto>('GET', '/api/group/tree?lang=eng');
    expect(tree.body.data?.children.find((n) => n.id === group.id)?.name).toBe('Gloves');
  });

  it('answers 400 for an unknown ?lang= and an unknown query parameter', async () => {
    const group = await create('X');
    const bad = await api('GET', `/api/group/${group.id}?lang=xyz`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_LANGUAGE');
    const unknown = await api('GET', `/api/group?sort=name`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Unknown parameter 'sort'");
  });
});

describe('rename', () => {
  it('renames in the default language and returns the ProductGroupDto', async () => {
    const parent = await create('Parent');
    const group = await create('Alt', parent.id);
    const res = await api('PUT', `/api/group/${group.id}`, { name: 'Neu' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...group, name: 'Neu' } });
    expect(await get(group.id)).toEqual({ ...group, name: 'Neu' });
  });

  it.each([
    ['missing name', {}, 'name is required'],
    ['only language', { language: 'eng' }, 'name is required'],
    ['empty name', { name: '' }, 'name must not be empty or only white space or invisible characters'],
    ['name too long', { name: 'y'.repeat(257) }, 'name must be at most 256 characters'],
    ['wrong type', { name: ['a'] }, 'name must be a string'],
    ['unknown field', { name: 'N', parentId: 3 }, "Unknown field 'parentId'"],
    ['bad language', { name: 'N', language: 'english' }, 'language'],
  ])('answers 400 for %s and changes nothing', async (_case, body, message) => {
    const group = await create('Stays');
    const res = await api('PUT', `/api/group/${group.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect(await get(group.id)).toEqual(group);
  });

  it('answers 404 for an unknown group', async () => {
    const res = await api('PUT', '/api/group/987654', { name: 'N' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Group 987654 not found', code: 'GROUP_NOT_FOUND' });
  });
});
