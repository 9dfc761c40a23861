import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import type { GroupDto } from '../helpers/group-dto.js';
import { groupRest, rootNumber } from './groups.fixtures.js';

/** Creating groups over REST: the ProductGroupDto, numbering, validation. */

const file = serverPerFile();

const { api, create, get, list } = groupRest(file);

describe('create', () => {
  it('creates a root-level group: 201, Location, the full ProductGroupDto', async () => {
    const res = await api('POST', '/api/group', { name: 'Werkzeuge' });
    expect(res.status).toBe(201);
    const group = res.body.data as GroupDto;
    expect(res.headers.get('location')).toBe(`/api/group/${group.id}`);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        groupId: expect.stringMatching(/^\d+$/),
        name: 'Werkzeuge',
        parentGroupId: null,
        childGroupCount: 0,
        productCount: 0,
        createdAt: file.server.clock.now().toISOString(),
        updatedAt: file.server.clock.now().toISOString(),
      },
    });
    expect(await get(group.id)).toEqual(group);
  });

  it('numbers root-level groups 1, 2, 3 in creation order and children 2.1, 2.2', async () => {
    const a = await create('A');
    const b = await create('B', null);
    const c = await create('C');
    const n = rootNumber(a);
    expect([b.groupId, c.groupId]).toEqual([String(n + 1), String(n + 2)]);

    const b1 = await create('B1', b.id);
    const b2 = await create('B2', b.id);
    const b21 = await create('B21', b2.id);
    expect(b1).toMatchObject({ groupId: `${n + 1}.1`, parentGroupId: b.id });
    expect(b2).toMatchObject({ groupId: `${n + 1}.2`, parentGroupId: b.id });
    expect(b21).toMatchObject({ groupId: `${n + 1}.2.1`, parentGroupId: b2.id });
    expect(await get(b.id)).toMatchObject({ childGroupCount: 2 });
    expect(await get(b2.id)).toMatchObject({ childGroupCount: 1 });
  });

  it('never reuses a number after a delete and never shifts the others', async () => {
    const a = await create('A');
    const b = await create('B');
    const n = rootNumber(a);
    expect((await api('DELETE', `/api/group/${b.id}`)).status).toBe(200);
    const c = await create('C');
    expect(c.groupId).toBe(String(n + 2));

    const c1 = await create('C1', c.id);
    const c2 = await create('C2', c.id);
    expect((await api('DELETE', `/api/group/${c1.id}`)).status).toBe(200);
    const c3 = await create('C3', c.id);
    expect(c3.groupId).toBe(`${n + 2}.3`);
    expect((await get(c2.id)).groupId).toBe(`${n + 2}.2`);
    expect((await get(a.id)).groupId).toBe(String(n));
  });

  it('answers 404 for an unknown parent and creates nothing, consuming no number', async () => {
    const before = await list();
    const res = await api('POST', '/api/group', { name: 'Orphan', parentId: 999_999 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Group 999999 not found', code: 'GROUP_NOT_FOUND' });
    expect(await list()).toEqual(before);

    const a = await create('A');
    const b = await create('B');
    expect(Number(b.groupId)).toBe(rootNumber(a) + 1);
  });

  it.each([
    ['no body', undefined, 'Request body must be a JSON object'],
    ['missing name', {}, 'name is required'],
    ['empty name', { name: '' }, 'name must not be empty or only white space or invisible characters'],
    ['blank name', { name: '   ' }, 'name must not be empty or only white space or invisible characters'],
    ['name too long', { name: 'x'.repeat(257) }, 'name must be at most 256 characters'],
    ['name of wrong type', { name: 5 }, 'name must be a string'],
    ['unknown field', { name: 'X', parent: 1 }, "Unknown field 'parent'"],
    ['parentId as string', { name: 'X', parentId: '1' }, 'parentId'],
    ['parentId not integer', { name: 'X', parentId: 1.5 }, 'parentId'],
    ['parentId zero', { name: 'X', parentId: 0 }, 'parentId'],
    ['unknown language', { name: 'X', language: 'xx' }, "language 'xx' is not an ISO 639-2 language code"],
    ['language of wrong type', { name: 'X', language: 7 }, 'language must be a string'],
  ])('answers 400 for %s and creates nothing', async (_case, body, message) => {
    const before = await list();
    const res = await api('POST', '/api/group', body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(message);
    expect(await list()).toEqual(before);
  });

  it('accepts a name of exactly 256 characters (counted as characters, not UTF-16 units)', async () => {
    const long = 'ä'.repeat(255) + '🔧';
    const group = await create(long);
    expect(group.name).toBe(long);
  });

  it('answers 400 for malformed JSON and 415 for another content type', async () => {
    const malformed = await file.server.request('POST', '/api/group', {
      token: file.token,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const form = await file.server.request('POST', '/api/group', {
      token: file.token,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
  });
});
