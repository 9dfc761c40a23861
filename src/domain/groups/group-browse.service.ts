import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import * as repo from './group-browse.repository.js';
import type { GroupDeletePreview, GroupNode, GroupPathEntry } from './group-browse.types.js';
import { findGroupKey } from './group.repository.js';
import { groupNotFound, nameLanguages } from './group.service.js';

/**
 * Reads for a tree that opens level by level (the window's group tree): where getGroupTree answers
 * all groups at once, these answer one node's children, so a level costs the same whether the
 * workspace holds fifty groups or fifty thousand.
 */

/**
 * The groups directly under `parentId` (null: the root level), in order of id as every list, with
 * their counts. An unknown parent is GROUP_NOT_FOUND, not an empty level: a tree showing a group
 * deleted meanwhile learns that it is gone.
 */
export async function listGroupChildren(
  context: RequestContext,
  parentId: number | null,
): Promise<GroupNode[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const languages = nameLanguages(ctx);
  const rows = await repo.selectChildRows(ctx.db, languages, parentId);
  // Children prove their parent exists (foreign key); only an empty level asks whether it does,
  // so the usual answer is one statement (one round trip on PostgreSQL, no transaction).
  if (rows.length === 0 && parentId !== null && !(await findGroupKey(ctx.db, parentId)))
    throw groupNotFound(parentId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    childCount: Number(row.child_count),
    productCount: Number(row.product_count),
  }));
}

/** The way from the root level down to group `id`, the group itself last. */
export async function getGroupPath(context: RequestContext, id: number): Promise<GroupPathEntry[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const rows = await repo.selectPathRows(ctx.db, nameLanguages(ctx), id);
  if (rows.length === 0) throw groupNotFound(id);
  return rows.map((row) => ({ id: row.id, name: row.name }));
}

/** What deleteGroup would do to group `id`, its subgroups and their products, read in one snapshot. */
export async function previewGroupDelete(context: RequestContext, id: number): Promise<GroupDeletePreview> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const languages = nameLanguages(ctx);
  return ctx.snapshot(async (trx) => {
    const [self] = await repo.selectPathRows(trx, languages, id).then((rows) => rows.slice(-1));
    if (!self) throw groupNotFound(id);
    const effects = await repo.selectDeleteEffects(trx, id);
    return {
      id,
      name: self.name,
      subgroupCount: Number(effects.subgroup_count),
      productCount: Number(effects.product_count),
      otherVariantCount: Number(effects.other_variant_count),
    };
  });
}
