import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { groupRest, rootNumber } from './groups.fixtures.js';

/** Moving groups over REST: renumbering of the subtree, cycles, validation, and the timestamps touched. */

const file = serverPerFile();

const { api, create, get, list } = groupRest(file);

describe('move', () => {
  it('renumbers the group and its subtree under the new parent, keeping relative numbers', async () => {
    const a = await create('A');
    const b = await create('B');
    const n = rootNumber(a);
    const a1 = await create('A1', a.id);
    const a2 = await create('A2', a.id);
    const a21 = await create('A21', a2.id);
    const a22 = await create('A22', a2.id);
    const a221 = await create('A221', a22.id);
    await create('B1', b.id);

    const res = await api('POST', `/api/group/${a2.id}/move`, { parentId: b.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { ...a2, groupId: `${n + 1}.2`, parentGroupId: b.id, childGroupCount: 2 },
    });
    expect((await get(a21.id)).groupId).toBe(`${n + 1}.2.1`);
    expect((await get(a22.id)).groupId).toBe(`${n + 1}.2.2`);
    expect((await get(a221.id)).groupId).toBe(`${n + 1}.2.2.1`);
    expect(await get(a.id)).toMatchObject({ childGroupCount: 1 });
    expect(await get(b.id)).toMatchObject({ childGroupCount: 2 });
    // Untouched elsewhere; the number 2 under A is not reused.
    expect((await get(a1.id)).groupId).toBe(`${n}.1`);
    expect((await create('A3', a.id)).groupId).toBe(`${n}.3`);
    // The subtree keeps counting where it was.
    expect((await create('A23', a2.id)).groupId).toBe(`${n + 1}.2.3`);
  });

  it('moves to the root level with the next root number when parentId is null', async () => {
    const a = await create('A');
    const a1 = await create('A1', a.id);
    const a11 = await create('A11', a1.id);
    const res = await api('POST', `/api/group/${a1.id}/move`, { parentId: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ parentGroupId: null, groupId: String(rootNumber(a) + 1) });
    expect((await get(a11.id)).groupId).toBe(`${rootNumber(a) + 1}.1`);
    expect((await create('Next')).groupId).toBe(String(rootNumber(a) + 2));
  });

  it('changes nothing when moving to the parent the group already has', async () => {
    const a = await create('A');
    const a1 = await create('A1', a.id);
    const same = await api('POST', `/api/group/${a1.id}/move`, { parentId: a.id });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(a1);
    expect((await create('A2', a.id)).groupId).toBe(`${rootNumber(a)}.2`);

    const root = await api('POST', `/api/group/${a.id}/move`, { parentId: null });
    expect(root.status).toBe(200);
    expect(root.body.data).toEqual({ ...a, childGroupCount: 2 });
    expect(Number((await create('B')).groupId)).toBe(rootNumber(a) + 1);
  });

  it('moving away and back gives a new number, never the old one', async () => {
    const a = await create('A');
    const b = await create('B');
    const x = await create('X', a.id);
    expect(x.groupId).toBe(`${rootNumber(a)}.1`);
    await api('POST', `/api/group/${x.id}/move`, { parentId: b.id });
    const back = await api('POST', `/api/group/${x.id}/move`, { parentId: a.id });
    expect(back.body.data).toMatchObject({ groupId: `${rootNumber(a)}.2`, parentGroupId: a.id });
  });

  it('refuses a move under the group itself or a descendant with 400 and changes nothing', async () => {
    const a = await create('A');
    const a1 = await create('A1', a.id);
    const a11 = await create('A11', a1.id);
    const before = await list();

    const self = await api('POST', `/api/group/${a.id}/move`, { parentId: a.id });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ success: false, code: 'GROUP_MOVE_CYCLE' });
    expect(self.body.error).toContain(`Group ${a.id}`);

    for (const target of [a1.id, a11.id]) {
      const res = await api('POST', `/api/group/${a.id}/move`, { parentId: target });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('GROUP_MOVE_CYCLE');
    }
    expect(await list()).toEqual(before);
    // No number was consumed by the refused moves.
    expect((await create('A12', a1.id)).groupId).toBe(`${rootNumber(a)}.1.2`);
  });

  it('answers 404 for an unknown group or an unknown new parent, changing nothing', async () => {
    const a = await create('A');
    const before = await list();
    const unknownGroup = await api('POST', '/api/group/777777/move', { parentId: a.id });
    expect(unknownGroup.status).toBe(404);
    expect(unknownGroup.body.error).toBe('Group 777777 not found');
    const unknownParent = await api('POST', `/api/group/${a.id}/move`, { parentId: 777778 });
    expect(unknownParent.status).toBe(404);
    expect(unknownParent.body).toEqual({
      success: false,
      error: 'Group 777778 not found',
      code: 'GROUP_NOT_FOUND',
    });
    expect(await list()).toEqual(before);
  });

  it.each([
    ['no body', undefined],
    ['missing parentId', {}],
    ['parentId as string', { parentId: '3' }],
    ['parentId not integer', { parentId: 1.25 }],
    ['parentId zero', { parentId: 0 }],
    ['unknown field', { parentId: null, position: 1 }],
  ])('answers 400 for %s', async (_case, body) => {
    const a = await create('A');
    const res = await api('POST', `/api/group/${a.id}/move`, body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(await get(a.id)).toEqual(a);
  });
});

describe('timestamps', () => {
  it('touches updatedAt of the renamed group and of every renumbered group on a move, nothing else', async () => {
    const a = await create('A');
    const b = await create('B');
    const a1 = await create('A1', a.id);
    const a11 = await create('A11', a1.id);
    file.server.clock.advance(1000);
    const renamedAt = file.server.clock.now().toISOString();
    const renamed = await api('PUT', `/api/group/${a.id}`, { name: 'A neu' });
    expect(renamed.body.data).toMatchObject({ createdAt: a.createdAt, updatedAt: renamedAt });

    file.server.clock.advance(1000);
    const movedAt = file.server.clock.now().toISOString();
    await api('POST', `/api/group/${a1.id}/move`, { parentId: b.id });
    expect(await get(a1.id)).toMatchObject({ createdAt: a1.createdAt, updatedAt: movedAt });
    expect(await get(a11.id)).toMatchObject({ createdAt: a11.createdAt, updatedAt: movedAt });
    expect((await get(a.id)).updatedAt).toBe(renamedAt);
    expect((await get(b.id)).updatedAt).toBe(b.updatedAt);
  });
});
