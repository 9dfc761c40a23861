import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  GroupChildrenDto,
  GroupDeletePreview,
  GroupNode,
  GroupPathDto,
} from '../../src/window/group-tree-api.types.js';
import type { GroupDto } from '../helpers/group-dto.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/** The window's group-tree endpoints (/ui/api/groups), checked against REST's view of the same data. */

let server: TestServer;
let token: string;
let run = 0;

beforeAll(async () => {
  server = await startServer({ window: true });
  token = await server.login();
  await server.addUser('vera', 'VIEWER');
});
afterAll(() => server?.stop());

async function rest<T>(method: string, path: string, body?: unknown) {
  return server.request<T>(method, path, { token, body });
}

async function admin(): Promise<WindowClient> {
  const window = new WindowClient(server);
  await window.login();
  return window;
}

async function created<T>(res: { status: number; body: { data?: T; error?: string } }): Promise<T> {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data as T;
}

async function product(masterProductId?: number): Promise<number> {
  run += 1;
  const res = await rest<{ id: number }>('POST', '/api/product', {
    supplierPid: `GT-${run}`,
    masterProductId,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

async function children(window: WindowClient, parentId?: number, lang?: string): Promise<GroupNode[]> {
  const query = new URLSearchParams();
  if (parentId !== undefined) query.set('parentId', String(parentId));
  if (lang) query.set('lang', lang);
  const res = await window.request<GroupChildrenDto>('GET', `/groups/children?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.groups;
}

/** A node as REST describes it: the flat list's parent links and each group's own product list. */
async function restNode(group: GroupDto, all: GroupDto[]): Promise<GroupNode> {
  const members = await rest<unknown[]>('GET', `/api/group/${group.id}/products`);
  return {
    id: group.id,
    name: group.name,
    parentId: group.parentGroupId,
    childCount: all.filter((g) => g.parentGroupId === group.id).length,
    productCount: members.body.data!.length,
  };
}

async function restChildren(parentId: number | null): Promise<GroupNode[]> {
  const all = (await rest<GroupDto[]>('GET', '/api/group')).body.data!;
  const level = all.filter((g) => g.parentGroupId === parentId).sort((a, b) => a.id - b.id);
  return Promise.all(level.map((g) => restNode(g, all)));
}

/** Root A (2 products, a variant) > B (1 product) > C; A > D. Names in German and English. */
async function smallTree(window: WindowClient) {
  const tag = ++run;
  const create = (name: string, parentId?: number, language?: string) =>
    window
      .request<GroupDto>('POST', '/groups', { body: { name, parentId, language } })
      .then((res) => created(res));
  const a = await create(`Werkzeug ${tag}`);
  const b = await create(`Bohrer ${tag}`, a.id);
  const c = await create(`Spiralbohrer ${tag}`, b.id);
  const d = await create(`Sägen ${tag}`, a.id);
  await window.request('PATCH', `/groups/${a.id}`, { body: { name: `Tools ${tag}`, language: 'eng' } });
  const main = await product();
  const variant = await product(main);
  const other = await product();
  const inB = await product();
  await created(
    await window.request('POST', `/groups/${a.id}/products`, { body: { productIds: [main, other] } }),
  );
  await created(await window.request('POST', `/groups/${b.id}/products`, { body: { productIds: [inB] } }));
  return { tag, a, b, c, d, main, variant, other, inB };
}

describe('reading the tree level by level', () => {
  it('answers each level with counts that match REST, names in the language asked for', async () => {
    const window = await admin();
    const { tag, a, b, c, d } = await smallTree(window);
    const roots = await children(window);
    expect(roots).toEqual(await restChildren(null));
    expect(roots.find((g) => g.id === a.id)).toEqual({
      id: a.id,
      name: `Werkzeug ${tag}`,
      parentId: null,
      childCount: 2,
      productCount: 2,
    });
    expect(await children(window, a.id)).toEqual(await restChildren(a.id));
    expect(await children(window, a.id)).toEqual([
      { id: b.id, name: `Bohrer ${tag}`, parentId: a.id, childCount: 1, productCount: 1 },
      { id: d.id, name: `Sägen ${tag}`, parentId: a.id, childCount: 0, productCount: 0 },
    ]);
    expect(await children(window, b.id)).toEqual(await restChildren(b.id));
    expect(await children(window, c.id)).toEqual([]);
    // English where there is an English name, else the workspace default (German).
    const english = await children(window, undefined, 'eng');
    expect(english.find((g) => g.id === a.id)?.name).toBe(`Tools ${tag}`);
    expect((await children(window, a.id, 'eng')).map((g) => g.name)).toEqual([
      `Bohrer ${tag}`,
      `Sägen ${tag}`,
    ]);
  });

  it('answers an unknown parent and a bad parentId with a clear error', async () => {
    const window = await admin();
    const unknown = await window.request('GET', '/groups/children?parentId=99999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'GROUP_NOT_FOUND', error: 'Group 99999999 not found' });
    const bad = await window.request('GET', '/groups/children?parentId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it('gives the way from the root level down to a group', async () => {
    const window = await admin();
    const { tag, a, b, c } = await smallTree(window);
    const res = await window.request<GroupPathDto>('GET', `/groups/${c.id}/path`);
    expect(res.body.data).toEqual({
      path: [
        { id: a.id, name: `Werkzeug ${tag}` },
        { id: b.id, name: `Bohrer ${tag}` },
        { id: c.id, name: `Spiralbohrer ${tag}` },
      ],
    });
    expect((await window.request<GroupPathDto>('GET', `/groups/${a.id}/path`)).body.data).toEqual({
      path: [{ id: a.id, name: `Werkzeug ${tag}` }],
    });
    const unknown = await window.request('GET', '/groups/99999999/path');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('GROUP_NOT_FOUND');
  });
});

describe('changing the tree through the window', () => {
  it('creates, renames and moves groups, visible through REST at once', async () => {
    const window = await admin();
    const { a, b, d } = await smallTree(window);
    const renamed = await window.request<GroupDto>('PATCH', `/groups/${d.id}`, {
      body: { name: 'Sägeblätter' },
    });
    expect(renamed.status).toBe(200);
    expect((await rest<GroupDto>('GET', `/api/group/${d.id}`)).body.data?.name).toBe('Sägeblätter');
    const moved = await window.request<GroupDto>('POST', `/groups/${b.id}/move`, {
      body: { parentId: d.id },
    });
    expect(moved.status).toBe(200);
    expect((await rest<GroupDto>('GET', `/api/group/${b.id}`)).body.data?.parentGroupId).toBe(d.id);
    expect((await children(window, d.id)).map((g) => g.id)).toEqual([b.id]);
    const top = await window.request<GroupDto>('POST', `/groups/${b.id}/move`, { body: { parentId: null } });
    expect(top.status).toBe(200);
    expect((await rest<GroupDto>('GET', `/api/group/${b.id}`)).body.data?.parentGroupId).toBeNull();
    expect((await children(window, a.id)).map((g) => g.id)).toEqual([d.id]);
  });

  it('refuses a move under the group itself or a descendant with the domain sentence, changing nothing', async () => {
    const window = await admin();
    const { a, c } = await smallTree(window);
    const self = await window.request('POST', `/groups/${a.id}/move`, { body: { parentId: a.id } });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({
      success: false,
      code: 'GROUP_MOVE_CYCLE',
      error: `Group ${a.id} cannot be moved under itself`,
    });
    const below = await window.request('POST', `/groups/${a.id}/move`, { body: { parentId: c.id } });
    expect(below.status).toBe(400);
    expect(below.body).toMatchObject({
      code: 'GROUP_MOVE_CYCLE',
      error: `Group ${a.id} cannot be moved under its descendant, group ${c.id}`,
    });
    expect((await rest<GroupDto>('GET', `/api/group/${a.id}`)).body.data?.parentGroupId).toBeNull();
    const blank = await window.request('PATCH', `/groups/${a.id}`, { body: { name: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.success).toBe(false);
  });

  it('previews a delete as it then happens: subgroups go, products are ungrouped', async () => {
    const window = await admin();
    const { a, b, c, d, main, other, inB } = await smallTree(window);
    const preview = await window.request<GroupDeletePreview>('GET', `/groups/${a.id}/delete-preview`);
    expect(preview.body.data).toMatchObject({
      id: a.id,
      subgroupCount: 3,
      productCount: 3,
      otherVariantCount: 1,
    });
    expect((await window.request('DELETE', `/groups/${a.id}`)).status).toBe(200);
    for (const id of [a.id, b.id, c.id, d.id])
      expect((await rest('GET', `/api/group/${id}`)).status).toBe(404);
    for (const id of [main, other, inB]) expect((await rest('GET', `/api/product/${id}`)).status).toBe(200);
    expect((await window.request('GET', `/groups/${a.id}/delete-preview`)).status).toBe(404);
  });

  it('previews a delete with its products as it then happens: variants elsewhere go too', async () => {
    const window = await admin();
    const { a, b, main, variant, other, inB } = await smallTree(window);
    const preview = await window.request<GroupDeletePreview>('GET', `/groups/${b.id}/delete-preview`);
    expect(preview.body.data).toMatchObject({ subgroupCount: 1, productCount: 1, otherVariantCount: 0 });
    const whole = (await window.request<GroupDeletePreview>('GET', `/groups/${a.id}/delete-preview`)).body
      .data!;
    const before = (await rest<unknown[]>('GET', '/api/product?all=true')).body.data!.length;
    expect((await window.request('DELETE', `/groups/${a.id}?deleteProducts=true`)).status).toBe(200);
    const after = (await rest<unknown[]>('GET', '/api/product?all=true')).body.data!.length;
    expect(before - after).toBe(whole.productCount + whole.otherVariantCount);
    for (const id of [main, variant, other, inB])
      expect((await rest('GET', `/api/product/${id}`)).status).toBe(404);
  });

  it('assigns products all or nothing: one unknown id refuses the whole request', async () => {
    const window = await admin();
    const { d } = await smallTree(window);
    const [p1, p2] = [await product(), await product()];
    const refused = await window.request('POST', `/groups/${d.id}/products`, {
      body: { productIds: [p1, 99999999, p2] },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'PRODUCT_NOT_FOUND', error: 'Product 99999999 not found' });
    expect((await rest<unknown[]>('GET', `/api/group/${d.id}/products`)).body.data).toEqual([]);
    const done = await window.request<GroupDto>('POST', `/groups/${d.id}/products`, {
      body: { productIds: [p1, p2] },
    });
    expect(done.status).toBe(200);
    expect(done.body.data?.productCount).toBe(2);
    const members = (await rest<{ id: number }[]>('GET', `/api/group/${d.id}/products`)).body.data!;
    expect(members.map((p) => p.id)).toEqual([p1, p2]);
  });
});

describe('rights', () => {
  it('lets a VIEWER read the tree and refuses every write with 403', async () => {
    const { a, b } = await smallTree(await admin());
    const p = await product();
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    expect((await children(viewer, a.id)).map((g) => g.id)).toContain(b.id);
    expect((await viewer.request('GET', `/groups/${b.id}/path`)).status).toBe(200);
    expect((await viewer.request('GET', `/groups/${b.id}/delete-preview`)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/groups', { name: 'x' }],
      ['PATCH', `/groups/${a.id}`, { name: 'x' }],
      ['POST', `/groups/${b.id}/move`, { parentId: null }],
      ['DELETE', `/groups/${b.id}`, undefined],
      ['POST', `/groups/${b.id}/products`, { productIds: [p] }],
    ] as const) {
      const res = await viewer.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.success).toBe(false);
    }
    expect((await rest<GroupDto>('GET', `/api/group/${b.id}`)).body.data?.parentGroupId).toBe(a.id);
  });
});
