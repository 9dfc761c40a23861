import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import type { GroupDto, NodeDto } from '../helpers/group-dto.js';

/**
 * Randomised: sequences of create, move, delete, assign, remove and product creation
 * through the API, each checked against a model of the rules, and after each step the
 * invariants of the tree: no cycles, groupIds unique and consistent with the parents'
 * prefixes, every count true, every product in at most one group, and the flat list,
 * the tree and the per-group product lists telling the same story.
 */

interface ModelGroup {
  id: number;
  parent: number | null;
  groupId: string;
  nextChild: number;
}

interface ModelProduct {
  id: number;
  master: number | null;
  group: number | null;
}

class Model {
  groups = new Map<number, ModelGroup>();
  products = new Map<number, ModelProduct>();
  nextRoot = 1;

  groupList(): ModelGroup[] {
    return [...this.groups.values()].sort((a, b) => a.id - b.id);
  }

  mainProducts(): ModelProduct[] {
    return [...this.products.values()].filter((p) => p.master === null).sort((a, b) => a.id - b.id);
  }

  subtree(id: number): Set<number> {
    const out = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const g of this.groups.values()) {
        if (g.parent !== null && out.has(g.parent) && !out.has(g.id)) {
          out.add(g.id);
          grew = true;
        }
      }
    }
    return out;
  }
}

/** Where a move goes: a group outside the subtree, the current parent, the root, inside the subtree, nowhere. */
type MoveMode = 'elsewhere' | 'same' | 'root' | 'cycle' | 'unknown';

type Op =
  | { kind: 'create'; parent: number | null }
  | { kind: 'move'; group: number; mode: MoveMode; target: number }
  | { kind: 'delete'; group: number; deleteProducts: boolean }
  | { kind: 'assign'; group: number; products: number[]; unknown: boolean }
  | { kind: 'remove'; group: number; product: number }
  | { kind: 'product'; variantOf: number | null };

const pick = fc.nat({ max: 50 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), parent: fc.option(pick) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      group: pick,
      mode: fc.constantFrom<MoveMode>(
        'elsewhere',
        'elsewhere',
        'elsewhere',
        'same',
        'root',
        'cycle',
        'unknown',
      ),
      target: pick,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), group: pick, deleteProducts: fc.boolean() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('assign' as const),
      group: pick,
      products: fc.array(pick, { maxLength: 4 }),
      unknown: fc.nat({ max: 4 }).map((n) => n === 0),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), group: pick, product: pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('product' as const), variantOf: fc.option(pick) }) },
);

/** A few groups first (so that moves and deletes have something to work on), then anything. */
const createArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('create' as const),
  parent: fc.option(pick, { nil: null }),
});
const sequenceArb = fc
  .tuple(
    fc.array(createArb, { minLength: 3, maxLength: 6 }),
    fc.array(opArb, { minLength: 5, maxLength: 20 }),
  )
  .map(([setup, ops]) => [...setup, ...ops]);

/** Ids that never exist: far above anything a run creates. */
const UNKNOWN_ID = 9_000_000;

let server: TestServer;
let token: string;
let runCounter = 0;
let pidCounter = 0;

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

function api<T = GroupDto>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  return server.request<T>(method, path, { token, body });
}

/** Every run starts on a fresh, empty workspace, so the model starts empty too. */
async function freshWorkspace(): Promise<void> {
  runCounter += 1;
  const ws = await server.app.workspaces.create(server.app.ownerContext(), {
    name: `Model-${runCounter}`,
    language: 'deu',
  });
  const res = await api('POST', '/api/workspace/open', { workspaceId: ws.id });
  expect(res.status, res.text).toBe(200);
}

async function createProduct(model: Model, master: number | null): Promise<void> {
  pidCounter += 1;
  const res = await api<{ id: number }>('POST', '/api/product', {
    supplierPid: `M-${pidCounter}`,
    ...(master === null ? {} : { masterProductId: master }),
  });
  expect(res.status, res.text).toBe(201);
  const id = (res.body.data as { id: number }).id;
  model.products.set(id, { id, master, group: null });
}

function at<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}

/** Applies one operation through the API and to the model, checking the answer the model predicts. */
async function apply(model: Model, op: Op): Promise<void> {
  const groups = model.groupList();
  const products = [...model.products.values()].sort((a, b) => a.id - b.id);
  const chosen = 'group' in op ? at(groups, op.group) : undefined;
  if (op.kind !== 'create' && op.kind !== 'product' && !chosen) {
    // No group yet: such an operation on an unknown group answers 404.
    const res = await api('POST', `/api/group/${UNKNOWN_ID}/move`, { parentId: null });
    expect(res.status).toBe(404);
    return;
  }
  switch (op.kind) {
    case 'create': {
      const parent = op.parent === null ? undefined : at(groups, op.parent);
      const res = await api('POST', '/api/group', {
        name: `G${groups.length}`,
        parentId: parent?.id ?? null,
      });
      expect(res.status, res.text).toBe(201);
      const dto = res.body.data as GroupDto;
      const groupId = parent ? `${parent.groupId}.${parent.nextChild++}` : String(model.nextRoot++);
      expect(dto.groupId).toBe(groupId);
      model.groups.set(dto.id, { id: dto.id, parent: parent?.id ?? null, groupId, nextChild: 1 });
      return;
    }
    case 'move': {
      const group = chosen as ModelGroup;
      const inside = model.subtree(group.id);
      const targets = {
        elsewhere: () =>
          at(
            groups.filter((g) => !inside.has(g.id) && g.id !== group.parent),
            op.target,
          )?.id,
        same: () => group.parent,
        root: () => null,
        cycle: () =>
          at(
            groups.filter((g) => inside.has(g.id)),
            op.target,
          )?.id,
        unknown: () => UNKNOWN_ID,
      };
      const found = targets[op.mode]();
      // No group outside the subtree: the move goes to the root instead.
      const target = found === undefined ? null : found;
      const res = await api('POST', `/api/group/${group.id}/move`, { parentId: target });
      if (target === UNKNOWN_ID) return void expect(res.status).toBe(404);
      if (target !== null && model.subtree(group.id).has(target)) return void expect(res.status).toBe(400);
      expect(res.status, res.text).toBe(200);
      if (group.parent === target) return;
      const parent = target === null ? null : (model.groups.get(target) as ModelGroup);
      const prefix = parent ? `${parent.groupId}.${parent.nextChild++}` : String(model.nextRoot++);
      const old = group.groupId;
      for (const id of model.subtree(group.id)) {
        const g = model.groups.get(id) as ModelGroup;
        g.groupId = prefix + g.groupId.slice(old.length);
      }
      group.parent = target;
      expect((res.body.data as GroupDto).groupId).toBe(prefix);
      return;
    }
    case 'delete': {
      const group = chosen as ModelGroup;
      const res = await api('DELETE', `/api/group/${group.id}?deleteProducts=${op.deleteProducts}`);
      expect(res.status, res.text).toBe(200);
      const gone = model.subtree(group.id);
      const members = [...model.products.values()].filter((p) => p.group !== null && gone.has(p.group));
      for (const p of members) {
        if (op.deleteProducts) model.products.delete(p.id);
        else p.group = null;
      }
      if (op.deleteProducts) {
        for (const p of [...model.products.values()]) {
          if (p.master !== null && !model.products.has(p.master)) model.products.delete(p.id);
        }
      }
      for (const id of gone) model.groups.delete(id);
      return;
    }
    case 'assign': {
      const group = chosen as ModelGroup;
      const ids = op.products.flatMap((i) => (products.length ? [at(products, i)!.id] : []));
      if (op.unknown) ids.splice(ids.length >> 1, 0, UNKNOWN_ID);
      const res = await api('POST', `/api/group/${group.id}/products`, { productIds: ids });
      if (op.unknown) {
        expect(res.status).toBe(404);
        expect(res.body.error).toBe(`Product ${UNKNOWN_ID} not found`);
        return;
      }
      expect(res.status, res.text).toBe(200);
      for (const id of ids) (model.products.get(id) as ModelProduct).group = group.id;
      expect((res.body.data as GroupDto).productCount).toBe(
        [...model.products.values()].filter((p) => p.group === group.id).length,
      );
      return;
    }
    case 'remove': {
      const group = chosen as ModelGroup;
      const product = at(products, op.product);
      const res = await api('DELETE', `/api/group/${group.id}/products/${product?.id ?? UNKNOWN_ID}`);
      if (!product || product.group !== group.id) return void expect(res.status).toBe(404);
      expect(res.status, res.text).toBe(200);
      product.group = null;
      return;
    }
    case 'product': {
      const master = op.variantOf === null ? undefined : at(model.mainProducts(), op.variantOf);
      await createProduct(model, master?.id ?? null);
      return;
    }
  }
}

/** Checks the API against the model and the tree invariants. */
async function check(model: Model): Promise<void> {
  const listRes = await api<GroupDto[]>('GET', '/api/group');
  const treeRes = await api<NodeDto>('GET', '/api/group/tree');
  const productsRes = await api<{ id: number }[]>('GET', '/api/product?all=true');
  expect([listRes.status, treeRes.status, productsRes.status]).toEqual([200, 200, 200]);
  const list = listRes.body.data as GroupDto[];
  const tree = treeRes.body.data as NodeDto;
  const modelGroups = model.groupList();
  const byId = new Map(list.map((g) => [g.id, g]));

  // The flat list: ordered by id, exactly the model's groups, numbers and counts true.
  expect(list.map((g) => g.id)).toEqual(modelGroups.map((g) => g.id));
  for (const g of modelGroups) {
    expect(byId.get(g.id)).toMatchObject({
      groupId: g.groupId,
      parentGroupId: g.parent,
      childGroupCount: modelGroups.filter((c) => c.parent === g.id).length,
      productCount: [...model.products.values()].filter((p) => p.group === g.id).length,
    });
  }

  // groupIds unique and consistent with the parents' prefixes; no cycles.
  expect(new Set(list.map((g) => g.groupId)).size).toBe(list.length);
  for (const g of list) {
    if (g.parentGroupId === null) expect(g.groupId).toMatch(/^[1-9]\d*$/);
    else {
      const parent = byId.get(g.parentGroupId);
      expect(parent).toBeDefined();
      expect(g.groupId).toMatch(new RegExp(`^${parent!.groupId.replace(/\./g, '\\.')}\\.[1-9]\\d*$`));
    }
    let steps = 0;
    for (let at: GroupDto | undefined = g; at && at.parentGroupId !== null; at = byId.get(at.parentGroupId)) {
      steps += 1;
      expect(steps).toBeLessThanOrEqual(list.length);
    }
  }

  // The tree: the same groups, parents, numbers and counts; children by id; the root counts the ungrouped.
  expect(tree).toMatchObject({ id: 0, groupId: '0', name: expect.stringMatching(/^Model-/) });
  expect(tree.productCount).toBe([...model.products.values()].filter((p) => p.group === null).length);
  const seen = new Set<number>();
  const walk = (node: NodeDto, parentId: number | null) => {
    expect(node.children.map((c) => c.id)).toEqual([...node.children.map((c) => c.id)].sort((a, b) => a - b));
    for (const child of node.children) {
      expect(seen.has(child.id)).toBe(false);
      seen.add(child.id);
      const flat = byId.get(child.id);
      expect(flat).toMatchObject({ parentGroupId: parentId, groupId: child.groupId, name: child.name });
      expect(child.productCount).toBe(flat?.productCount);
      expect(child.children).toHaveLength(flat?.childGroupCount ?? -1);
      walk(child, child.id);
    }
  };
  walk(tree, null);
  expect(seen.size).toBe(list.length);

  // The products of each group: as the model says, and no product in two groups.
  const grouped: number[] = [];
  for (const g of list) {
    const res = await api<{ id: number }[]>('GET', `/api/group/${g.id}/products`);
    const ids = (res.body.data as { id: number }[]).map((p) => p.id);
    expect(ids).toEqual(
      [...model.products.values()]
        .filter((p) => p.group === g.id)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    );
    expect(ids).toHaveLength(g.productCount);
    grouped.push(...ids);
  }
  expect(new Set(grouped).size).toBe(grouped.length);
  const all = (productsRes.body.data as { id: number }[]).map((p) => p.id);
  expect(all).toEqual([...model.products.keys()].sort((a, b) => a - b));
  expect(grouped.length + tree.productCount).toBe(all.length);
}

describe('group tree under random operations', () => {
  it('keeps every invariant after every step', async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArb, async (ops) => {
        await freshWorkspace();
        const model = new Model();
        for (let i = 0; i < 5; i++) await createProduct(model, null);
        for (const main of model.mainProducts().slice(0, 2)) await createProduct(model, main.id);
        for (const op of ops) {
          await apply(model, op);
          await check(model);
        }
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
