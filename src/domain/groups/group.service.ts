import { RIGHTS, useWorkspace, type RequestContext, type WorkspaceContext } from '../context.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import { checkNotBlank } from '../names.js';
import { listProducts, listProductsPage, type ProductDto } from '../products/product.service.js';
import type { ProductListFilter, ProductPage } from '../products/product.types.js';
import { noteDeletions } from '../products/product-deletion.service.js';
import { lockProducts, type ProductLockPurpose } from '../products/product-lock.repository.js';
import { lockProduct } from '../products/product.guards.js';
import { assembleTree } from './group-tree.js';
import * as repo from './group.repository.js';
import type { GroupRow, NameLanguages, ProductMembershipRow } from './group.repository.js';
import {
  GROUP_DEPTH_MAX,
  GROUP_NAME_MAX,
  type CreateGroupInput,
  type DeleteGroupOptions,
  type MoveGroupInput,
  type ProductGroupDto,
  type ProductGroupNodeDto,
  type RenameGroupInput,
} from './group.types.js';

/**
 * The product-group tree of the open workspace. Every change runs in one transaction,
 * validates before it writes, and touches `updated_at` of every product whose group
 * membership it changes (and of that product's main product when it is a variant).
 */

type Db = WorkspaceContext['workspace']['db'];

export function groupNotFound(id: number): NotFoundError {
  return new NotFoundError(`Group ${id} not found`, 'GROUP_NOT_FOUND');
}

export function productNotFound(id: number): NotFoundError {
  return new NotFoundError(`Product ${id} not found`, 'PRODUCT_NOT_FOUND');
}

/** The request's language (or `language`), then the workspace default, then the first name by code. */
export function nameLanguages(ctx: WorkspaceContext, language?: string): NameLanguages {
  const fallback = ctx.workspace.defaultLanguage;
  return { preferred: language ?? ctx.language ?? fallback, fallback };
}

function validName(name: string): string {
  checkNotBlank(name);
  const length = [...name].length;
  if (length > GROUP_NAME_MAX) throw new ValidationError(`name must be at most ${GROUP_NAME_MAX} characters`);
  return name;
}

function toDto(row: GroupRow): ProductGroupDto {
  return {
    id: row.id,
    groupId: row.bmecat_id,
    name: row.name,
    parentGroupId: row.parent_id,
    childGroupCount: Number(row.child_count),
    productCount: Number(row.product_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function readGroup(db: Db, languages: NameLanguages, id: number): Promise<ProductGroupDto> {
  const [row] = await repo.selectGroupRows(db, languages, id);
  if (!row) throw groupNotFound(id);
  return toDto(row);
}

async function requireGroup(db: Db, id: number): Promise<repo.GroupKeyRow> {
  const group = await repo.findGroupKey(db, id);
  if (!group) throw groupNotFound(id);
  return group;
}

/** The level of a group in the tree (root-level groups: 1), read off its hierarchical groupId. */
function levelOf(group: repo.GroupKeyRow): number {
  return group.bmecat_id.split('.').length;
}

/** Refuses a create or move that would make the tree deeper than GROUP_DEPTH_MAX levels. */
function checkDepth(deepest: number, what: string): void {
  if (deepest > GROUP_DEPTH_MAX) {
    throw new ValidationError(
      `${what} would make the group tree ${deepest} levels deep; at most ${GROUP_DEPTH_MAX} are allowed`,
      'GROUP_TREE_TOO_DEEP',
    );
  }
}

function now(ctx: WorkspaceContext): string {
  return ctx.clock.now().toISOString();
}

/** Main products of the variants among `rows`: their variant list changed, so they are touched too. */
function mastersOf(rows: readonly ProductMembershipRow[]): number[] {
  return [...new Set(rows.flatMap((r) => (r.master_id === null ? [] : [r.master_id])))];
}

export async function listGroups(context: RequestContext): Promise<ProductGroupDto[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const rows = await repo.selectGroupRows(ctx.db, nameLanguages(ctx));
  return rows.map(toDto);
}

export function getGroup(context: RequestContext, id: number): Promise<ProductGroupDto> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return readGroup(ctx.db, nameLanguages(ctx), id);
}

/**
 * The whole tree under one root node standing for the workspace. Two queries whatever
 * the size (groups with names and product counts; products without a group), read in
 * one transaction so that they agree, and assembled in memory.
 */
export async function getGroupTree(context: RequestContext): Promise<ProductGroupNodeDto> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const languages = nameLanguages(ctx);
  return ctx.snapshot(async (trx) => {
    const rows = await repo.selectTreeRows(trx, languages);
    const ungroupedProducts = await repo.countUngroupedProducts(trx);
    return assembleTree({ name: ctx.workspace.name, ungroupedProducts }, rows);
  });
}

/** Creates a group at root level or under `parentId`; its groupId is the parent's next free number. */
export async function createGroup(
  context: RequestContext,
  input: CreateGroupInput,
): Promise<ProductGroupDto> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const name = validName(input.name);
  const language =
    input.language === undefined ? ctx.workspace.defaultLanguage : normalizeLanguage(input.language);
  const parentId = input.parentId ?? null;
  return ctx.transaction(async (trx) => {
    await repo.lockTree(trx);
    let bmecatId: string;
    if (parentId === null) {
      bmecatId = String(await repo.takeRootSeq(trx));
    } else {
      const parent = await requireGroup(trx, parentId);
      checkDepth(levelOf(parent) + 1, `A group under group ${parentId}`);
      bmecatId = `${parent.bmecat_id}.${await repo.takeChildSeq(trx, parentId)}`;
    }
    const id = await repo.insertGroup(trx, { parent_id: parentId, bmecat_id: bmecatId, now: now(ctx) });
    await repo.upsertGroupName(trx, id, language, name);
    return readGroup(trx, nameLanguages(ctx, language), id);
  });
}

/** Sets the group's name in one language (default: the workspace's); the other languages stay. */
export async function renameGroup(
  context: RequestContext,
  id: number,
  input: RenameGroupInput,
): Promise<ProductGroupDto> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const name = validName(input.name);
  const language =
    input.language === undefined ? ctx.workspace.defaultLanguage : normalizeLanguage(input.language);
  return ctx.transaction(async (trx) => {
    await requireGroup(trx, id);
    await repo.upsertGroupName(trx, id, language, name);
    await repo.touchGroup(trx, id, now(ctx));
    return readGroup(trx, nameLanguages(ctx, language), id);
  });
}

/**
 * Moves a group with its subtree under another group or (null) to the root level. The group
 * gets the new parent's next free number and its subtree keeps its relative numbering.
 * Under itself or a descendant: 400, nothing changes. To the parent it has: nothing changes.
 */
export async function moveGroup(
  context: RequestContext,
  id: number,
  input: MoveGroupInput,
): Promise<ProductGroupDto> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const parentId = input.parentId;
  return ctx.transaction(async (trx) => {
    await repo.lockTree(trx);
    const group = await requireGroup(trx, id);
    const parent = parentId === null ? null : await requireGroup(trx, parentId);
    if (parent && (await repo.isSelfOrDescendant(trx, parent.id, id))) {
      throw new ValidationError(
        parent.id === id
          ? `Group ${id} cannot be moved under itself`
          : `Group ${id} cannot be moved under its descendant, group ${parent.id}`,
        'GROUP_MOVE_CYCLE',
      );
    }
    if (group.parent_id !== parentId) {
      if (parent)
        checkDepth(
          levelOf(parent) + (await repo.subtreeHeight(trx, id)),
          `Moving group ${id} under group ${parent.id}`,
        );
      const newPrefix = parent
        ? `${parent.bmecat_id}.${await repo.takeChildSeq(trx, parent.id)}`
        : String(await repo.takeRootSeq(trx));
      await repo.reparentAndRenumber(trx, {
        id,
        parentId,
        oldPrefix: group.bmecat_id,
        newPrefix,
        now: now(ctx),
      });
    }
    return readGroup(trx, nameLanguages(ctx), id);
  });
}

/**
 * The products in the groups, locked (with their main products, and for a delete their variants,
 * in id order: product-lock.repository.ts) and as they are once locked: a product deleted meanwhile
 * is not deleted or recorded a second time, one moved to another group meanwhile stays there.
 */
async function lockMembers(
  trx: Db,
  groupIds: readonly number[],
  purpose: ProductLockPurpose,
): Promise<ProductMembershipRow[]> {
  const found = await repo.selectProductsInGroups(trx, groupIds);
  const locked = await lockProducts(
    trx,
    found.map((p) => p.id),
    purpose,
    { variants: purpose === 'delete' },
  );
  const groups = new Set(groupIds);
  return locked.filter((p) => p.group_id !== null && groups.has(p.group_id));
}

/**
 * Deletes a group and its whole subtree. The products of the deleted groups are ungrouped,
 * or with `deleteProducts` deleted together with their variants.
 */
export async function deleteGroup(
  context: RequestContext,
  id: number,
  options: DeleteGroupOptions = {},
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  await ctx.transaction(async (trx) => {
    await repo.lockTree(trx);
    await requireGroup(trx, id);
    const groupIds = await repo.selectSubtreeIds(trx, id);
    await repo.lockGroupRows(trx, groupIds);
    const products = await lockMembers(trx, groupIds, options.deleteProducts ? 'delete' : 'change');
    const ids = products.map((p) => p.id);
    const at = now(ctx);
    if (options.deleteProducts) {
      await noteDeletions(trx, ids, at);
      await repo.deleteProductRows(trx, ids);
    } else {
      await repo.setProductsGroup(trx, ids, null, at);
    }
    // Main products that are left (deleted ones are simply not found) lost or changed a variant.
    await repo.touchProducts(trx, mastersOf(products), at);
    await repo.deleteGroups(trx, groupIds);
  });
}

/**
 * Locks group `id` against deletion for the rest of the caller's transaction (GROUP_NOT_FOUND when
 * there is none). A write that changes a product and then assigns it takes this first: the group
 * before the product, the order of an assignment and of a group delete, which otherwise deadlock
 * with it (PostgreSQL resolves that after a second by aborting one of them).
 */
export async function reserveGroup(context: RequestContext, id: number): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  await ctx.transaction(async (trx) => {
    if (!(await repo.lockGroupRow(trx, id))) throw groupNotFound(id);
  });
}

/**
 * Assigns products to a group, all or nothing: one unknown id gives 404 and assigns none.
 * A product is in one group at most, so a product in another group is moved here.
 */
export async function assignProducts(
  context: RequestContext,
  id: number,
  productIds: readonly number[],
): Promise<ProductGroupDto> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const wanted = [...new Set(productIds)];
  return ctx.transaction(async (trx) => {
    if (!(await repo.lockGroupRow(trx, id))) throw groupNotFound(id);
    // The group, then the products (with their main products, in id order), as a group delete
    // locks them: a product deleted meanwhile is 404, not an assignment of nothing answered 200.
    const requested = new Set(wanted);
    const found = (await lockProducts(trx, wanted, 'change')).filter((p) => requested.has(p.id));
    const known = new Set(found.map((p) => p.id));
    const missing = wanted.find((productId) => !known.has(productId));
    if (missing !== undefined) throw productNotFound(missing);
    const changing = found.filter((p) => p.group_id !== id);
    const at = now(ctx);
    await repo.setProductsGroup(
      trx,
      changing.map((p) => p.id),
      id,
      at,
    );
    await repo.touchProducts(trx, mastersOf(changing), at);
    return readGroup(trx, nameLanguages(ctx), id);
  });
}

/** Removes one product from a group; it is then without group. Not in that group: 404. */
export async function removeProduct(context: RequestContext, id: number, productId: number): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  await ctx.transaction(async (trx) => {
    await requireGroup(trx, id);
    // Locked with its main product in id order, as every product write (no deadlock with a delete).
    const product = await lockProduct(trx, productId);
    const at = now(ctx);
    // Only while it is still in this group: an unconditional update undid an assignment to another
    // group made after the check (both answered 200 and the product ended in no group).
    if (!(await repo.leaveGroup(trx, productId, id, at))) {
      throw new NotFoundError(`Product ${productId} is not in group ${id}`, 'PRODUCT_NOT_IN_GROUP');
    }
    await repo.touchProducts(trx, mastersOf([product]), at);
  });
}

/** The products directly in a group (main products and variants, no recursion), ordered by id. */
export async function listGroupProducts(context: RequestContext, id: number): Promise<ProductDto[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  await requireGroup(ctx.db, id);
  return listProducts(ctx, { all: true, groupId: id });
}

/**
 * One page of the products directly in a group, filtered as listProductsPage filters: an unknown
 * group is GROUP_NOT_FOUND (404), as on REST, not an empty page.
 */
export async function listGroupProductsPage(
  context: RequestContext,
  id: number,
  filter: Omit<ProductListFilter, 'groupId'>,
): Promise<ProductPage> {
  const ctx = useWorkspace(context, RIGHTS.read);
  await requireGroup(ctx.db, id);
  return listProductsPage(ctx, { ...filter, groupId: id });
}

/** Takes a product out of whatever group it is in (nothing changes when it is in none). */
export async function ungroupProduct(context: RequestContext, productId: number): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  await ctx.transaction(async (trx) => {
    const product = await lockProduct(trx, productId);
    if (product.group_id === null) return;
    const at = now(ctx);
    await repo.setProductsGroup(trx, [productId], null, at);
    await repo.touchProducts(trx, mastersOf([product]), at);
  });
}
