import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { groupRest } from './groups.fixtures.js';

/** Deleting groups over REST: the whole subtree, and the errors. */

const file = serverPerFile();

const { api, create, get, list } = groupRest(file);

describe('delete', () => {
  it('deletes the group with its whole subtree and answers {success: true}', async () => {
    const a = await create('A');
    const a1 = await create('A1', a.id);
    const a11 = await create('A11', a1.id);
    const a2 = await create('A2', a.id);
    const res = await api('DELETE', `/api/group/${a1.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const id of [a1.id, a11.id]) expect((await api('GET', `/api/group/${id}`)).status).toBe(404);
    expect(await get(a.id)).toMatchObject({ childGroupCount: 1 });
    expect(await get(a2.id)).toEqual(a2);
    const ids = (await list()).map((g) => g.id);
    expect(ids).not.toContain(a1.id);
    expect(ids).not.toContain(a11.id);
  });

  it('answers 404 for an unknown group and 400 for a bad deleteProducts', async () => {
    const missing = await api('DELETE', '/api/group/565656');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('GROUP_NOT_FOUND');
    const a = await create('A');
    const bad = await api('DELETE', `/api/group/${a.id}?deleteProducts=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('deleteProducts');
    expect(await get(a.id)).toEqual(a);
  });
});
