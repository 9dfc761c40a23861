import { expect } from 'vitest';
import type { CommandOf, MoveMode } from './commands.js';
import { expectedGroupDto } from './expected-dtos.js';
import type { Model } from './model.js';
import { UNKNOWN_ID, at, firstError, prefer, withoutUndefined } from './plan-helpers.js';
import type { Planned } from './plan.js';

/** Planning the group calls: create_group, move_group, delete_group, assign_products, unassign_product. */

export function planCreateGroup(model: Model, cmd: CommandOf<'create_group'>, now: string): Planned {
  // With no group yet, a known parent cannot be had: root level then.
  const parent = cmd.parent === 'root' ? undefined : at(model.groupList(), cmd.parent);
  const parentId = cmd.parent === null ? UNKNOWN_ID : (parent?.id ?? null);
  const body = withoutUndefined({ name: cmd.name, language: cmd.language, parentId });
  return {
    tool: 'create_group',
    args: body,
    expected: parentId === UNKNOWN_ID ? 'GROUP_NOT_FOUND' : null,
    touched: [],
    twin: { method: 'POST', path: '/api/group', body },
    apply(data) {
      const groupId = parent ? `${parent.groupId}.${parent.nextChild++}` : String(model.nextRoot++);
      const id = data.id as number;
      expect(model.groups.has(id)).toBe(false);
      const group = { id, parent: parent?.id ?? null, groupId, nextChild: 1, name: cmd.name };
      model.groups.set(id, { ...group, createdAt: now, updatedAt: now });
      expect(data).toEqual(expectedGroupDto(model, model.groups.get(id)!));
      return [];
    },
  };
}

export function planMoveGroup(model: Model, cmd: CommandOf<'move_group'>, now: string): Planned {
  const groups = model.groupList();
  // cycle: a group that has descendants to move it under.
  const group = at(
    prefer(groups, cmd.mode === 'cycle', (g) => groups.some((c) => c.parent === g.id)),
    cmd.group,
  );
  const id = group?.id ?? UNKNOWN_ID;
  const inside = group ? model.subtree(group.id) : new Set<number>();
  const targets: Record<MoveMode, () => number | null | undefined> = {
    elsewhere: () =>
      at(
        groups.filter((g) => !inside.has(g.id) && g.id !== group?.parent),
        cmd.pick,
      )?.id,
    same: () => group?.parent ?? null,
    root: () => null,
    self: () => group?.id,
    cycle: () =>
      at(
        groups.filter((g) => inside.has(g.id) && g.id !== group?.id),
        cmd.pick,
      )?.id,
    unknown: () => UNKNOWN_ID + 1,
  };
  const found = targets[cmd.mode]();
  // No such group (no other group, no descendant): the move goes to the root instead.
  const parentId = found === undefined ? null : found;
  return {
    tool: 'move_group',
    args: { id, parentId },
    expected: firstError([
      [!group, 'GROUP_NOT_FOUND'],
      [parentId === UNKNOWN_ID + 1, 'GROUP_NOT_FOUND'],
      [parentId !== null && inside.has(parentId), 'GROUP_MOVE_CYCLE'],
    ]),
    touched: [],
    twin: { method: 'POST', path: `/api/group/${id}/move`, body: { parentId } },
    apply(data) {
      const g = group!;
      if (g.parent !== parentId) {
        const parent = parentId === null ? undefined : model.groups.get(parentId)!;
        const prefix = parent ? `${parent.groupId}.${parent.nextChild++}` : String(model.nextRoot++);
        const old = g.groupId;
        for (const member of inside) {
          const m = model.groups.get(member)!;
          m.groupId = prefix + m.groupId.slice(old.length);
          m.updatedAt = now;
        }
        g.parent = parentId;
      }
      expect(data).toEqual(expectedGroupDto(model, g));
      return [];
    },
  };
}

export function planDeleteGroup(model: Model, cmd: CommandOf<'delete_group'>): Planned {
  const products = model.productList();
  const group = at(model.groupList(), cmd.group);
  const id = group?.id ?? UNKNOWN_ID;
  return {
    tool: 'delete_group',
    args: { id, deleteProducts: cmd.deleteProducts },
    expected: group ? null : 'GROUP_NOT_FOUND',
    touched: [],
    twin: { method: 'DELETE', path: `/api/group/${id}?deleteProducts=${cmd.deleteProducts}` },
    apply(data) {
      expect(data).toEqual({ deletedId: id, deleteProducts: cmd.deleteProducts });
      const gone = model.subtree(id);
      const members = products.filter((p) => p.group !== null && gone.has(p.group));
      for (const g of gone) model.groups.delete(g);
      if (!cmd.deleteProducts) {
        for (const p of members) p.group = null;
        return members.map((p) => p.id);
      }
      const masters = members.flatMap((p) => (p.master === null ? [] : [p.master]));
      return [...model.deleteProducts(members.map((p) => p.id)), ...masters];
    },
  };
}

export function planAssignProducts(model: Model, cmd: CommandOf<'assign_products'>): Planned {
  const products = model.productList();
  const group = at(model.groupList(), cmd.group);
  const id = group?.id ?? UNKNOWN_ID;
  const ids = cmd.products.flatMap((i) => (products.length ? [at(products, i)!.id] : []));
  if (cmd.unknown) ids.splice(ids.length >> 1, 0, UNKNOWN_ID + 2);
  const body = { productIds: ids };
  return {
    tool: 'assign_products',
    args: { groupId: id, ...body },
    expected: firstError([
      [!group, 'GROUP_NOT_FOUND'],
      [cmd.unknown, 'PRODUCT_NOT_FOUND'],
    ]),
    touched: ids.filter((i) => model.products.has(i)),
    // One already in the group: no change of membership, so its updatedAt may stay.
    written: ids,
    twin: { method: 'POST', path: `/api/group/${id}/products`, body },
    apply(data) {
      for (const i of ids) model.products.get(i)!.group = id;
      expect(data).toEqual(expectedGroupDto(model, group!));
      return ids;
    },
  };
}

export function planUnassignProduct(model: Model, cmd: CommandOf<'unassign_product'>): Planned {
  const products = model.productList();
  // member: a group that has products, and one of them.
  const groupList = model.groupList();
  const group = at(
    prefer(groupList, cmd.member, (g) => products.some((p) => p.group === g.id)),
    cmd.group,
  );
  const id = group?.id ?? UNKNOWN_ID;
  const members = products.filter((p) => group !== undefined && p.group === group.id);
  const product =
    cmd.product === null
      ? undefined
      : cmd.member && members.length
        ? at(members, cmd.product)
        : at(products, cmd.product);
  const productId = product?.id ?? UNKNOWN_ID + 3;
  return {
    tool: 'unassign_product',
    args: { groupId: id, productId },
    expected: firstError([
      [!group, 'GROUP_NOT_FOUND'],
      [!product, 'PRODUCT_NOT_FOUND'],
      [product?.group !== id, 'PRODUCT_NOT_IN_GROUP'],
    ]),
    touched: product ? [product.id] : [],
    twin: { method: 'DELETE', path: `/api/group/${id}/products/${productId}` },
    apply(data) {
      expect(data).toEqual({ groupId: id, productId });
      product!.group = null;
      return [productId];
    },
  };
}
