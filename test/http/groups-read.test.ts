import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';
import { groupRest } from './groups.fixtures.js';

/** Reading groups over REST: one group, the list, and the tree. */

const file = serverPerFile();

const { api, create, get, list } = groupRest(file);

describe('read', () => {
  it('answers 404 for an unknown group and 400 for a bad id', async () => {
    const missing = await api('GET', '/api/group/424242');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      success: false,
      error: 'Group 424242 not found',
      code: 'GROUP_NOT_FOUND',
    });
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await api('GET', `/api/group/${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it('lists all groups ordered by id with true counts', async () => {
    const p = await create('P');
    const c1 = await create('C1', p.id);
    await create('C2', p.id);
    await create('C11', c1.id);
    const all = await list();
    const ids = all.map((g) => g.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    for (const g of all) {
      expect(g.childGroupCount).toBe(all.filter((o) => o.parentGroupId === g.id).length);
    }
    expect(all.find((g) => g.id === p.id)?.childGroupCount).toBe(2);
    expect(all.find((g) => g.id === c1.id)).toEqual(await get(c1.id));
  });

  it('answers 405 with Allow for an unsupported method', async () => {
    const res = await api('PATCH', '/api/group/1', { name: 'x' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('PUT');
  });
});

describe('tree', () => {
  let own: TestServer;
  let ownToken: string;
  beforeAll(async () => {
    own = await startServer();
    ownToken = await own.login();
  });
  afterAll(() => own.stop());

  it('is one root node for the workspace even without groups', async () => {
    const res = await own.request('GET', '/api/group/tree', { token: ownToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { id: 0, groupId: '0', name: 'Test', productCount: 0, children: [] },
    });
  });

  it('nests the groups under the root node, children ordered by id', async () => {
    const post = async (name: string, parentId?: number) => {
      const res = await own.request<GroupDto>('POST', '/api/group', {
        token: ownToken,
        body: { name, parentId },
      });
      return res.body.data as GroupDto;
    };
    const a = await post('A');
    const b = await post('B');
    const b1 = await post('B1', b.id);
    const a1 = await post('A1', a.id);
    const b11 = await post('B11', b1.id);
    await own.request('POST', `/api/group/${a1.id}/move`, { token: ownToken, body: { parentId: b.id } });
    const res = await own.request<NodeDto>('GET', '/api/group/tree', { token: ownToken });
    const leaf = (g: GroupDto, groupId: string, children: NodeDto[] = []): NodeDto => ({
      id: g.id,
      groupId,
      name: g.name,
      productCount: 0,
      children,
    });
    expect(res.body.data).toEqual({
      id: 0,
      groupId: '0',
      name: 'Test',
      productCount: 0,
      children: [leaf(a, '1'), leaf(b, '2', [leaf(b1, '2.1', [leaf(b11, '2.1.1')]), leaf(a1, '2.2')])],
    });
  });
});
