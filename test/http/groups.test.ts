import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';

/** The group tree over REST: create, read, rename, move, delete, numbering, validation, rights, OpenAPI. */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

function api<T = GroupDto>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  return server.request<T>(method, path, { token, body });
}

async function create(name: string, parentId?: number | null, language?: string): Promise<GroupDto> {
  const res = await api('POST', '/api/group', { name, parentId, language });
  expect(res.status, res.text).toBe(201);
  return res.body.data as GroupDto;
}

async function get(id: number, query = ''): Promise<GroupDto> {
  const res = await api('GET', `/api/group/${id}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as GroupDto;
}

async function list(): Promise<GroupDto[]> {
  const res = await api<GroupDto[]>('GET', '/api/group');
  expect(res.status).toBe(200);
  return res.body.data as GroupDto[];
}

/** The root-level number of a group created at root level. */
function rootNumber(group: GroupDto): number {
  expect(group.groupId).toMatch(/^[1-9]\d*$/);
  return Number(group.groupId);
}

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
        createdAt: server.clock.now().toISOString(),
        updatedAt: server.clock.now().toISOString(),
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
    ['empty name', { name: '' }, 'name must not be empty or only white space'],
    ['blank name', { name: '   ' }, 'name must not be empty or only white space'],
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
    const malformed = await server.request('POST', '/api/group', {
      token,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const form = await server.request('POST', '/api/group', {
      token,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
  });
});

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
    ['empty name', { name: '' }, 'name must not be empty or only white space'],
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

describe('timestamps', () => {
  it('touches updatedAt of the renamed group and of every renumbered group on a move, nothing else', async () => {
    const a = await create('A');
    const b = await create('B');
    const a1 = await create('A1', a.id);
    const a11 = await create('A11', a1.id);
    server.clock.advance(1000);
    const renamedAt = server.clock.now().toISOString();
    const renamed = await api('PUT', `/api/group/${a.id}`, { name: 'A neu' });
    expect(renamed.body.data).toMatchObject({ createdAt: a.createdAt, updatedAt: renamedAt });

    server.clock.advance(1000);
    const movedAt = server.clock.now().toISOString();
    await api('POST', `/api/group/${a1.id}/move`, { parentId: b.id });
    expect(await get(a1.id)).toMatchObject({ createdAt: a1.createdAt, updatedAt: movedAt });
    expect(await get(a11.id)).toMatchObject({ createdAt: a11.createdAt, updatedAt: movedAt });
    expect((await get(a.id)).updatedAt).toBe(renamedAt);
    expect((await get(b.id)).updatedAt).toBe(b.updatedAt);
  });
});

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

describe('access', () => {
  it('lets a VIEWER read and refuses every change with 403', async () => {
    const group = await create('Visible');
    await server.addUser('groupviewer', 'VIEWER');
    const viewer = await server.login('groupviewer', 'groupviewer-password');
    for (const path of [
      '/api/group',
      '/api/group/tree',
      `/api/group/${group.id}`,
      `/api/group/${group.id}/products`,
    ]) {
      expect((await server.request('GET', path, { token: viewer })).status, path).toBe(200);
    }
    const writes: [string, string, unknown][] = [
      ['POST', '/api/group', { name: 'No' }],
      ['PUT', `/api/group/${group.id}`, { name: 'No' }],
      ['DELETE', `/api/group/${group.id}`, undefined],
      ['POST', `/api/group/${group.id}/move`, { parentId: null }],
      ['POST', `/api/group/${group.id}/products`, { productIds: [] }],
      ['DELETE', `/api/group/${group.id}/products/1`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await server.request(method, path, { token: viewer, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.success).toBe(false);
    }
    expect(await get(group.id)).toEqual(group);
  });

  it('lets an EDITOR change groups', async () => {
    await server.addUser('groupeditor', 'EDITOR');
    const editor = await server.login('groupeditor', 'groupeditor-password');
    const res = await server.request('POST', '/api/group', { token: editor, body: { name: 'By editor' } });
    expect(res.status).toBe(201);
  });

  it('answers 401 without a token', async () => {
    const res = await server.request('GET', '/api/group');
    expect(res.status).toBe(401);
  });

  it('answers 409 on every group path when no workspace is open', async () => {
    const bare = await startServer({ setup: 'no-workspace' });
    try {
      const bareToken = await bare.login();
      for (const [method, path] of [
        ['GET', '/api/group'],
        ['GET', '/api/group/tree'],
        ['POST', '/api/group'],
        ['POST', '/api/group/1/move'],
      ] as const) {
        const body = method === 'POST' ? { name: 'x' } : undefined;
        const res = await bare.request(method, path, { token: bareToken, body });
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body.code).toBe('NO_WORKSPACE_OPEN');
      }
    } finally {
      await bare.stop();
    }
  });
});

describe('OpenAPI', () => {
  it('describes every group route with tag, summary, description, schemas and examples', async () => {
    const res = await server.request('GET', '/api/openapi.json');
    const doc = JSON.parse(res.text) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const routes: [string, string, boolean][] = [
      ['/api/group', 'get', false],
      ['/api/group', 'post', true],
      ['/api/group/tree', 'get', false],
      ['/api/group/{id}', 'get', false],
      ['/api/group/{id}', 'put', true],
      ['/api/group/{id}', 'delete', false],
      ['/api/group/{id}/move', 'post', true],
      ['/api/group/{id}/products', 'get', false],
      ['/api/group/{id}/products', 'post', true],
      ['/api/group/{id}/products/{productId}', 'delete', false],
    ];
    for (const [path, method, hasBody] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op?.tags).toEqual(['group']);
      expect(op?.summary).toEqual(expect.any(String));
      expect(String(op?.description).length).toBeGreaterThan(20);
      const responses = op?.responses as Record<string, unknown>;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403', '409', '500']));
      if (hasBody) {
        const content = (op?.requestBody as { content: Record<string, Record<string, unknown>> }).content;
        const json = content['application/json'];
        expect(json?.examples ?? json?.example, `${method} ${path}`).toBeDefined();
      }
    }
    expect(JSON.stringify(doc.paths['/api/group/{id}/move'])).toContain('descendants');
  });
});
