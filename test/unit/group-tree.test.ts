import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { bindCatalogueSql } from '../../src/db/catalogue/catalogue-sql.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceDatabase } from '../../src/db/workspace.schema.js';
import { ManualClock } from '../../src/domain/clock.js';
import { systemContext, type RequestContext } from '../../src/domain/context.js';
import * as groups from '../../src/domain/groups/group.service.js';
import { GROUP_DEPTH_MAX, type ProductGroupNodeDto } from '../../src/domain/groups/group.types.js';
import {
  initWorkspaceDatabase,
  openWorkspaceDatabase,
  type OpenWorkspace,
} from '../../src/domain/workspaces/open-workspace.js';

/**
 * The group service on a real workspace database (no HTTP): the cost of the tree at
 * realistic size (in statements; its speed is the bench's), and trees deeper than SQLite's cascade and trigger depth.
 */

let dir: string;
let workspace: OpenWorkspace;
let ctx: RequestContext;
let queries: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-group-unit-'));
  await initWorkspaceDatabase(dir, 'deu');
  workspace = await openWorkspaceDatabase({ id: 1, name: 'Bench', rootpath: dir });
  queries = [];
  // A second Kysely on the same connection that records every statement it runs.
  const counting = new Kysely<WorkspaceDatabase>({
    dialect: new SqliteDialect({ database: workspace.raw! }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query.sql);
    },
  });
  // It runs the workspace's SQL, as the workspace's own connection does.
  bindCatalogueSql(counting, workspace.store.sql);
  ctx = systemContext(new ManualClock(new Date('2026-02-01T00:00:00.000Z')), {
    ...workspace,
    db: counting,
  });
});

afterEach(async () => {
  await workspace.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Fixture: `groupCount` groups (10 root-level, the rest spread below earlier groups) and products spread over them. */
function seed(groupCount: number, productCount: number): void {
  const raw = workspace.raw!;
  const at = '2026-01-01T00:00:00.000Z';
  raw.transaction(() => {
    const insertGroup = raw.prepare(
      'INSERT INTO product_group (id, parent_id, bmecat_id, next_child_seq, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
    );
    const bumpChild = raw.prepare(
      'UPDATE product_group SET next_child_seq = next_child_seq + 1 WHERE id = ? RETURNING next_child_seq - 1 AS seq',
    );
    const insertName = raw.prepare('INSERT INTO product_group_name (group_id, lang, name) VALUES (?, ?, ?)');
    const bmecat = new Map<number, string>();
    for (let id = 1; id <= groupCount; id++) {
      const parent = id <= 10 ? null : 1 + ((id * 7919) % (id - 1));
      const seq = parent === null ? id : (bumpChild.get(parent) as { seq: number }).seq;
      const code = parent === null ? String(seq) : `${bmecat.get(parent)}.${seq}`;
      bmecat.set(id, code);
      insertGroup.run(id, parent, code, at, at);
      insertName.run(id, 'deu', `Gruppe ${code}`);
      if (id % 2 === 0) insertName.run(id, 'eng', `Group ${code}`);
    }
    raw.prepare("UPDATE meta SET value = ? WHERE key = 'next_root_group_seq'").run(String(11));
    const insertProduct = raw.prepare(
      'INSERT INTO product (supplier_pid, group_id, created_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    for (let i = 0; i < productCount; i++) {
      // Every 20th product is without a group.
      insertProduct.run(`P-${i}`, i % 20 === 0 ? null : 1 + (i % groupCount), at, at);
    }
  })();
}

/** The first word of a statement: begin, select, commit, ... */
function kind(statement: string): string {
  return statement.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
}

function flatten(root: ProductGroupNodeDto): ProductGroupNodeDto[] {
  const out: ProductGroupNodeDto[] = [];
  const stack = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop() as ProductGroupNodeDto;
    out.push(node);
    stack.push(...node.children);
  }
  return out;
}

describe('group tree at realistic size', () => {
  // One seed for both answers. 20,000 products, not the bench's 100,000: the statements do not
  // depend on the count (the last test shows it), and inserting 100,000 through the product
  // table's triggers took most of this file's time; the tree's speed is the bench's group-tree row.
  it('answers the tree and the flat list of 5,000 groups with 20,000 products in a constant number of queries', async () => {
    seed(5000, 20_000);
    const tree = await groups.getGroupTree(ctx);
    expect(queries.map(kind)).toEqual(['begin', 'select', 'select', 'commit']);
    const nodes = flatten(tree);
    expect(nodes).toHaveLength(5000);
    expect(tree.children).toHaveLength(10);
    expect(tree.productCount).toBe(1000);
    expect(nodes.reduce((sum, n) => sum + n.productCount, 0)).toBe(19_000);
    expect(nodes.find((n) => n.id === 4)?.name).toBe('Gruppe 4');

    queries.length = 0;
    const list = await groups.listGroups({ ...ctx, language: 'eng' });
    expect(queries.map(kind)).toEqual(['select']);
    expect(list).toHaveLength(5000);
    expect(list.reduce((sum, g) => sum + g.productCount, 0)).toBe(19_000);
    expect(list.reduce((sum, g) => sum + g.childGroupCount, 0)).toBe(4990);
    expect(list[3]).toMatchObject({ id: 4, name: 'Group 4' });
    expect(list[2]).toMatchObject({ id: 3, name: 'Gruppe 3' });
  });

  it('keeps the query count of the tree independent of the number of groups', async () => {
    seed(3, 10);
    await groups.getGroupTree(ctx);
    expect(queries.map(kind)).toEqual(['begin', 'select', 'select', 'commit']);
  });
});

describe('deep trees', () => {
  async function chain(length: number): Promise<number[]> {
    const ids: number[] = [];
    let parentId: number | null = null;
    for (let i = 0; i < length; i++) {
      const group = await groups.createGroup(ctx, { name: `Level ${i}`, parentId });
      ids.push(group.id);
      parentId = group.id;
    }
    return ids;
  }

  /**
   * A chain made before the tree's depth bound (GROUP_DEPTH_MAX) existed: the first levels
   * through the service, the rest written as that code wrote them.
   */
  async function legacyChain(length: number): Promise<number[]> {
    const ids = await chain(GROUP_DEPTH_MAX);
    const raw = workspace.raw!;
    const insert = raw.prepare(
      `INSERT INTO product_group (parent_id, bmecat_id, next_child_seq, created_at, updated_at)
       VALUES (?, ?, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    );
    const name = raw.prepare("INSERT INTO product_group_name (group_id, lang, name) VALUES (?, 'deu', ?)");
    const taken = raw.prepare('UPDATE product_group SET next_child_seq = 2 WHERE id = ?');
    let bmecatId = (await groups.getGroup(ctx, ids.at(-1)!)).groupId;
    raw.transaction(() => {
      for (let i = ids.length; i < length; i++) {
        const parentId = ids.at(-1)!;
        bmecatId = `${bmecatId}.1`;
        taken.run(parentId);
        const id = Number(insert.run(parentId, bmecatId).lastInsertRowid);
        name.run(id, `Level ${i}`);
        ids.push(id);
      }
    })();
    return ids;
  }

  it('refuses to grow a chain past the bound, and still reads, moves and deletes one deeper than SQLite’s cascade depth (1,000)', async () => {
    const ids = await legacyChain(1200);
    const deepest = await groups.getGroup(ctx, ids[1199] as number);
    expect(deepest.groupId).toBe(['1', ...Array<string>(1199).fill('1')].join('.'));
    await expect(groups.createGroup(ctx, { name: 'deeper', parentId: ids[1199] })).rejects.toMatchObject({
      detailCode: 'GROUP_TREE_TOO_DEEP',
    });

    const other = await groups.createGroup(ctx, { name: 'Other' });
    expect(other.groupId).toBe('2');
    await expect(groups.moveGroup(ctx, ids[0] as number, { parentId: other.id })).rejects.toMatchObject({
      detailCode: 'GROUP_TREE_TOO_DEEP',
    });
    // The last 100 levels fit at the root level: renumbered down the whole subtree.
    await groups.moveGroup(ctx, ids[1100] as number, { parentId: null });
    const moved = await groups.getGroup(ctx, ids[1199] as number);
    expect(moved.groupId).toBe(['3', ...Array<string>(99).fill('1')].join('.'));

    const tree = await groups.getGroupTree(ctx);
    expect(flatten(tree)).toHaveLength(1201);

    await groups.deleteGroup(ctx, ids[0] as number);
    await groups.deleteGroup(ctx, ids[1100] as number);
    const left = await groups.listGroups(ctx);
    expect(left.map((g) => g.id)).toEqual([other.id]);
    expect(left[0]?.childGroupCount).toBe(0);
    const names = workspace.raw!.prepare('SELECT COUNT(*) AS n FROM product_group_name').get() as {
      n: number;
    };
    expect(names.n).toBe(1);
  });
});
