import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { DomainError, ValidationError } from '../errors.js';
import { groupNotFound } from '../groups/group.service.js';
import type { BulkProductResultDto } from './product-bulk.schemas.js';
import { lockNamed } from './product-bulk-fast.js';
import { deletePartRows, insertPartRows } from './product-bulk-parts.repository.js';
import { changeProducts, findExtraGroups, findGroupIds, touchOnly } from './product-bulk-write.repository.js';
import { checkBatchSize, keyRepeated, noProductWithPid, refusal } from './product-bulk.rules.js';
import { GROUPS_MAX } from './product-model.rules.js';
import { checkGroupIds } from './product-parts.rules.js';

/**
 * Every group of many products at once, as the bulk upsert of `{supplierPid, groupIds}` documents
 * stores them (the same rows, revisions and change counter; test/domain/product-groups-bulk.test.ts
 * compares the two), without its schema check, plan and comparison of whole documents: for a
 * catalogue's PRODUCT_TO_CATALOGGROUP_MAPs, where those made some 1 KB of short-lived objects per
 * product and a 270,000-product import's heap grew by 170 MB in its last seconds (docs/bmecat.md).
 */

/**
 * A product's groups: the whole list in order (the first is its group, none for an empty list), or
 * changes to the stored list, in order: a group added goes last unless the product is in it, a
 * group removed leaves the list (a catalogue's update mappings, mode new or delete).
 */
export type ProductGroupList =
  | { supplierPid: string; groupIds: readonly number[] }
  | { supplierPid: string; changes: readonly { groupId: number; remove: boolean }[] };

const named = (entry: ProductGroupList) =>
  'groupIds' in entry ? entry.groupIds : entry.changes.filter((c) => !c.remove).map((c) => c.groupId);

/** The list after the changes, from the stored one. */
function changedList(stored: readonly number[], changes: readonly { groupId: number; remove: boolean }[]) {
  let list = [...stored];
  for (const { groupId, remove } of changes) {
    if (remove) list = list.filter((g) => g !== groupId);
    else if (!list.includes(groupId)) list.push(groupId);
  }
  return list;
}

/**
 * Sets each product's groups (up to BULK_DOCUMENTS_MAX entries) in one transaction, or the
 * caller's. Results in the order of the entries: 200, or the refusal of that entry alone (no
 * such product, a group that does not exist or is named twice, too many groups, a product named
 * twice), whose product is left as it was.
 */
export async function setProductGroups(
  context: RequestContext,
  entries: readonly ProductGroupList[],
): Promise<BulkProductResultDto[]> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  checkBatchSize(entries.length);
  return ctx.transaction(async (db) => {
    const at = ctx.clock.now().toISOString();
    // The groups first, then the products: the order in which the bulk upsert locks them.
    const groups = await findGroupIds(db, [...new Set(entries.flatMap(named))]);
    const stored = new Map(
      (await lockNamed(db, [...new Set(entries.map((e) => e.supplierPid))])).map((row) => [
        row.supplier_pid,
        row,
      ]),
    );
    // The stored lists the changes start from (their groups exist: the rows refer to them).
    const extras = entries.some((e) => 'changes' in e)
      ? await findExtraGroups(
          db,
          [...stored.values()].map((row) => row.id),
        )
      : new Map<number, number[]>();
    const results: BulkProductResultDto[] = [];
    const changes: { id: number; fields: Record<string, never>; groupId?: number | null }[] = [];
    const extraRows: [number, number, number][] = [];
    const masters = new Set<number>();
    const keys = new Map<string, number>();
    for (const [index, entry] of entries.entries()) {
      const { supplierPid } = entry;
      const product = stored.get(supplierPid);
      let groupIds: readonly number[] = 'groupIds' in entry ? entry.groupIds : [];
      let storedGroups: readonly number[] = [];
      try {
        if ('changes' in entry) {
          if (!product) throw noProductWithPid(supplierPid);
          storedGroups = [
            ...(product.group_id === null ? [] : [product.group_id]),
            ...(extras.get(product.id) ?? []),
          ];
          groupIds = changedList(storedGroups, entry.changes);
        }
        // The upsert's order: the document's shape, its key, its groups.
        if (groupIds.length > GROUPS_MAX)
          throw new ValidationError(
            `groupIds holds at most ${GROUPS_MAX} groups, this one ${groupIds.length}`,
          );
        const earlier = keys.get(supplierPid);
        if (earlier !== undefined) throw keyRepeated(supplierPid, earlier);
        keys.set(supplierPid, index);
        checkGroupIds(groupIds);
        // A stored group exists (the product's rows refer to it); a named one must.
        for (const id of groupIds) if (!groups.has(id) && !storedGroups.includes(id)) throw groupNotFound(id);
        // Where the upsert would create a product, this only sets groups of existing ones.
        if (!product) throw noProductWithPid(supplierPid);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ supplierPid, id: null, ...refusal(error) });
        continue;
      }
      const group = groupIds[0] ?? null;
      // Sending the groups touches the product even when they are as they were (as the upsert does).
      changes.push({ id: product.id, fields: {}, ...(group !== product.group_id ? { groupId: group } : {}) });
      groupIds.slice(1).forEach((groupId, i) => extraRows.push([product.id, i + 1, groupId]));
      if (product.master_id !== null) masters.add(product.master_id);
      results.push({ supplierPid, id: product.id, status: 200 });
    }
    await changeProducts(db, changes, at);
    await touchOnly(db, [...masters], at);
    await deletePartRows(
      db,
      'product_extra_group',
      changes.map((c) => c.id),
    );
    await insertPartRows(db, 'product_extra_group', extraRows);
    return results;
  });
}
