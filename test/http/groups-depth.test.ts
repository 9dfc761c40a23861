import { describe, expect, it } from 'vitest';
import { GROUP_DEPTH_MAX } from '../../src/domain/groups/group.types.js';
import { serverPerFile } from '../helpers/file-server.js';
import type { GroupDto } from '../helpers/group-dto.js';
import { groupRest } from './groups.fixtures.js';

/**
 * The tree's depth bound: a chain of thousands of levels made GET /api/group/tree and MCP's
 * get_group_tree answer 500 for every reader (the serialisers recurse per level). Creates and
 * moves that would pass the bound are refused, and change nothing.
 */
const file = serverPerFile();
const { api, create, get } = groupRest(file);

async function chain(levels: number, parentId: number | null = null): Promise<GroupDto[]> {
  const groups: GroupDto[] = [];
  for (let level = 1; level <= levels; level++) {
    groups.push(await create(`L${level}`, groups.at(-1)?.id ?? parentId));
  }
  return groups;
}

async function treeDepth(): Promise<number> {
  const res = await api<{ children: unknown[] }>('GET', '/api/group/tree');
  expect(res.status, res.text).toBe(200);
  let depth = 0;
  let level = res.body.data!.children as { children: unknown[] }[];
  while (level.length > 0) {
    depth++;
    level = level.flatMap((node) => node.children as { children: unknown[] }[]);
  }
  return depth;
}

describe(`the group tree's depth (at most ${GROUP_DEPTH_MAX} levels)`, () => {
  it('creates down to the last level and refuses one more, writing nothing', async () => {
    const groups = await chain(GROUP_DEPTH_MAX);
    const deepest = groups.at(-1)!;
    expect(deepest.groupId.split('.')).toHaveLength(GROUP_DEPTH_MAX);
    const before = (await api<GroupDto[]>('GET', '/api/group')).body.data!.length;
    const res = await api('POST', '/api/group', { name: 'too deep', parentId: deepest.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: `A group under group ${deepest.id} would make the group tree ${GROUP_DEPTH_MAX + 1} levels deep; at most ${GROUP_DEPTH_MAX} are allowed`,
      code: 'GROUP_TREE_TOO_DEEP',
    });
    expect((await api<GroupDto[]>('GET', '/api/group')).body.data!.length).toBe(before);
    expect(await get(deepest.id)).toEqual(deepest);
    expect(await treeDepth()).toBe(GROUP_DEPTH_MAX);
    // Removing the chain keeps the other tests' trees shallow.
    expect((await api('DELETE', `/api/group/${groups[0]!.id}`)).status).toBe(200);
  });

  it('refuses a move whose subtree would pass the bound, and allows one that fits', async () => {
    const trunk = await chain(GROUP_DEPTH_MAX - 2);
    const branch = await chain(3);
    const before = await Promise.all(branch.map((group) => get(group.id)));
    const res = await api('POST', `/api/group/${branch[0]!.id}/move`, { parentId: trunk.at(-1)!.id });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'GROUP_TREE_TOO_DEEP' });
    expect(res.body.error).toMatch(/\b101 levels deep; at most 100\b/);
    expect(await Promise.all(branch.map((group) => get(group.id)))).toEqual(before);
    // Two levels fit under the trunk's last group exactly.
    const fits = await api<GroupDto>('POST', `/api/group/${branch[1]!.id}/move`, {
      parentId: trunk.at(-1)!.id,
    });
    expect(fits.status, fits.text).toBe(200);
    expect((await get(branch[2]!.id)).groupId.split('.')).toHaveLength(GROUP_DEPTH_MAX);
    for (const root of [trunk[0]!, branch[0]!])
      expect((await api('DELETE', `/api/group/${root.id}`)).status).toBe(200);
  });
});
