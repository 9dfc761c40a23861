import { describe, expect, it } from 'vitest';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';
import { connectHttp, ERAS, ok } from '../helpers/mcp.js';
import { sessionPerFile, fail } from '../helpers/mcp-session.js';
import {
  createGroup,
  product,
  restGroup,
  restGroups,
  restMembers,
  restTree,
  type Page,
} from './group-tools.fixtures.js';

/** The group tools and REST share one catalogue, over every protocol era; a VIEWER only reads. */

/** One application for the file: each test finds its own groups in the tree and lists. */
const { cleanups, open } = sessionPerFile();

/** A root-level group's node in the tree, or undefined. */
const rootNode = (tree: NodeDto, id: number) => tree.children.find((n) => n.id === id);

describe('tools and REST see the same catalogue', () => {
  it('each change made by a tool is visible through REST in the very next request', async () => {
    const s = await open();
    const p = await product(s);

    const a = await createGroup(s, 'A');
    expect(await restGroup(s, a.id)).toEqual(a);
    const b = await createGroup(s, 'B', a.id);
    expect(rootNode(await restTree(s), a.id)!.children.map((n) => n.id)).toEqual([b.id]);

    await ok(s.client, 'rename_group', { id: b.id, name: 'B renamed' });
    expect((await restGroup(s, b.id)).name).toBe('B renamed');

    await ok(s.client, 'move_group', { id: b.id, parentId: null });
    expect((await restGroup(s, b.id)).parentGroupId).toBeNull();

    await ok(s.client, 'assign_products', { groupId: b.id, productIds: [p.id] });
    expect(await restMembers(s, b.id)).toEqual([p.id]);

    await ok(s.client, 'unassign_product', { groupId: b.id, productId: p.id });
    expect(await restMembers(s, b.id)).toEqual([]);

    await ok(s.client, 'delete_group', { id: b.id });
    expect((await s.rest('GET', `/api/group/${b.id}`)).status).toBe(404);
  });

  it('each change made through REST is visible through the tools in the very next call', async () => {
    const s = await open();
    const p = await product(s);

    const created = await s.rest<GroupDto>('POST', '/api/group', { name: 'Rest' });
    expect(created.status).toBe(201);
    const { id, groupId } = created.body.data!;
    expect(rootNode(await ok<NodeDto>(s.client, 'get_group_tree'), id)).toEqual({
      id,
      groupId,
      name: 'Rest',
      productCount: 0,
      children: [],
    });

    expect((await s.rest('PUT', `/api/group/${id}`, { name: 'Rest renamed' })).status).toBe(200);
    expect(rootNode(await ok<NodeDto>(s.client, 'get_group_tree'), id)!.name).toBe('Rest renamed');

    expect((await s.rest('POST', `/api/group/${id}/products`, { productIds: [p.id] })).status).toBe(200);
    const page = await ok<Page>(s.client, 'list_group_products', { groupId: id });
    expect(page.items.map((item) => item.id)).toEqual([p.id]);

    expect((await s.rest('DELETE', `/api/group/${id}/products/${p.id}`)).status).toBe(200);
    expect((await ok<Page>(s.client, 'list_group_products', { groupId: id })).items).toEqual([]);

    expect((await s.rest('DELETE', `/api/group/${id}`)).status).toBe(200);
    expect((await fail(s.client, 'list_group_products', { groupId: id })).code).toBe('GROUP_NOT_FOUND');
    expect(rootNode(await ok<NodeDto>(s.client, 'get_group_tree'), id)).toBeUndefined();
  });

  it.each(ERAS)('works alike over the %s protocol era', async (era) => {
    const s = await open({ era });
    const a = await createGroup(s, 'A');
    expect(await restGroup(s, a.id)).toEqual(a);
    expect(rootNode(await ok<NodeDto>(s.client, 'get_group_tree'), a.id)).toMatchObject({ name: 'A' });
    expect(await fail(s.client, 'move_group', { id: a.id, parentId: a.id })).toMatchObject({
      code: 'GROUP_MOVE_CYCLE',
      status: 400,
    });
  });

  it('refuses the group changes to a VIEWER with FORBIDDEN (403), reads allowed', async () => {
    const s = await open();
    const a = await createGroup(s, 'A');
    const before = await restGroups(s);
    await s.server.addUser('v', 'VIEWER');
    const viewerToken = await s.server.login('v', 'v-password');
    const viewer = await connectHttp(s.server.baseUrl, viewerToken);
    cleanups.push(() => viewer.close());
    const listed = (await viewer.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('get_group_tree');
    expect(listed).not.toContain('create_group');
    const sentence = "Role VIEWER lacks the right 'Bearbeiten' this operation needs";
    for (const [name, args] of [
      ['create_group', { name: 'X' }],
      ['rename_group', { id: a.id, name: 'X' }],
      ['move_group', { id: a.id, parentId: null }],
      ['delete_group', { id: a.id }],
    ] as const) {
      expect(await fail(viewer, name, args)).toEqual({ error: sentence, code: 'FORBIDDEN', status: 403 });
    }
    expect(await restGroups(s)).toEqual(before);
    expect(before).toContainEqual(a);
    expect(rootNode(await ok<NodeDto>(viewer, 'get_group_tree'), a.id)).toMatchObject({ name: 'A' });
  });
});
