import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoGroups } from '../../src/app/demo-groups.js';
import { ManualClock } from '../../src/domain/clock.js';
import { systemContext, type RequestContext } from '../../src/domain/context.js';
import * as groups from '../../src/domain/groups/group.service.js';
import { createProduct, listProducts } from '../../src/domain/products/product.service.js';
import {
  initWorkspaceDatabase,
  openWorkspaceDatabase,
  type OpenWorkspace,
} from '../../src/domain/workspaces/open-workspace.js';

let dir: string;
let workspace: OpenWorkspace;
let ctx: RequestContext;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-group-demo-'));
  await initWorkspaceDatabase(dir, 'deu');
  workspace = await openWorkspaceDatabase({ id: 1, name: 'Demo', rootpath: dir });
  ctx = systemContext(new ManualClock(new Date('2026-03-01T08:00:00.000Z')), workspace);
});

afterEach(async () => {
  await workspace.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seedDemoGroups', () => {
  it('builds three root groups with children, named in German and English', async () => {
    expect(await seedDemoGroups(ctx)).toBe(10);
    const tree = await groups.getGroupTree(ctx);
    expect(tree.children.map((n) => [n.groupId, n.name])).toEqual([
      ['1', 'Werkzeuge'],
      ['2', 'Befestigungstechnik'],
      ['3', 'Arbeitsschutz'],
    ]);
    expect(tree.children.map((n) => n.children.length)).toEqual([3, 2, 2]);
    expect(tree.children[1]?.children.map((n) => n.groupId)).toEqual(['2.1', '2.2']);
    const english = await groups.getGroupTree({ ...ctx, language: 'eng' });
    expect(english.children[0]?.children.map((n) => n.name)).toEqual([
      'Power tools',
      'Hand tools',
      'Measuring tools',
    ]);
  });

  it('spreads the main products over the leaf groups and leaves variants ungrouped', async () => {
    const mains = [];
    for (let i = 1; i <= 9; i++) mains.push(await createProduct(ctx, { supplierPid: `DEMO-${i}` }));
    await createProduct(ctx, { supplierPid: 'DEMO-1-V', masterProductId: mains[0]!.id });

    await seedDemoGroups(ctx);
    const list = await groups.listGroups(ctx);
    const leaves = list.filter((g) => g.childGroupCount === 0);
    expect(leaves).toHaveLength(7);
    expect(list.filter((g) => g.childGroupCount > 0).every((g) => g.productCount === 0)).toBe(true);
    expect(leaves.map((g) => g.productCount)).toEqual([2, 2, 1, 1, 1, 1, 1]);
    const tree = await groups.getGroupTree(ctx);
    expect(tree.productCount).toBe(1);
    const grouped = (await Promise.all(leaves.map((g) => listProducts(ctx, { groupId: g.id })))).flat();
    expect(grouped.map((p) => p.id).sort((a, b) => a - b)).toEqual(mains.map((p) => p.id));
  });
});
