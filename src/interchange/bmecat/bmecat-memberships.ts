import type { RequestContext } from '../../domain/context.js';
import { findGroupByCatalogId } from '../../domain/groups/catalog-group-id.service.js';
import {
  setProductGroups,
  type ProductGroupList,
} from '../../domain/products/product-groups-bulk.service.js';
import { BmecatError } from './bmecat-reader.js';

/**
 * The file's PRODUCT_TO_CATALOGGROUP_MAPs (docs/bmecat.md, "Importing" 5). In a T_NEW_CATALOG each
 * mapped product's groups become the file's list in file order (the first is its pim group), and a
 * mapping must name a product of the file. In a T_UPDATE_PRODUCTS each mapping changes the stored
 * groups of its product, which the file or the workspace holds: `new` (the default) adds the group,
 * `delete` removes it. A GROUP_ID the file's group system lacks is looked for among the groups a
 * catalogue gave it before.
 */
interface Entry {
  ops: { groupId: number; remove: boolean }[];
  line: number;
  column: number;
}

export interface Mapping {
  supplierPid: string;
  groupId: string;
  mode: string | undefined;
  line: number;
  column: number;
}

export class Memberships {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly transaction: string) {}

  /** Records a mapping; `fileGroups` are the file's GROUP_IDs with the groups made of them. */
  async add(ctx: RequestContext, mapping: Mapping, fileGroups: Map<string, number>): Promise<void> {
    // A whole catalogue holds its groups; an update may name groups an earlier catalogue gave.
    const update = this.transaction === 'T_UPDATE_PRODUCTS';
    const group =
      fileGroups.get(mapping.groupId) ??
      (update ? await findGroupByCatalogId(ctx, mapping.groupId) : undefined);
    if (group === undefined)
      throw new BmecatError(
        `PRODUCT_TO_CATALOGGROUP_MAP names the group '${mapping.groupId}', which the file's CATALOG_GROUP_SYSTEM does not hold` +
          (update ? ' nor the workspace' : ''),
        mapping.line,
        mapping.column,
      );
    const entry = this.entries.get(mapping.supplierPid) ?? {
      ops: [],
      line: mapping.line,
      column: mapping.column,
    };
    entry.ops.push({
      groupId: group,
      remove: this.transaction === 'T_UPDATE_PRODUCTS' && mapping.mode === 'delete',
    });
    this.entries.set(mapping.supplierPid, entry);
  }

  /**
   * Writes every product's groups once the products are written, `batchSize` products a call
   * (setProductGroups: only the groups, where the bulk upsert checked and planned each as a whole
   * document and the garbage took a 270,000-product import from 345 to 590 MB in its last
   * seconds; an update's changes applied to the stored lists there, where each product's whole
   * sheet was read here), each mapping let go once its batch is written. `inFile` holds the file's
   * SUPPLIER_PIDs; `skipped` those a continued import left out; `refuse` fails or skips a product.
   * A mapping that names no product fails the import as a whole (nothing is written: the import's
   * transaction), whichever batch it is met in.
   */
  async write(
    ctx: RequestContext,
    inFile: ReadonlySet<string>,
    skipped: ReadonlySet<string | null>,
    refuse: (supplierPid: string, message: string, line: number, column: number) => void,
    batchSize: number,
  ): Promise<void> {
    const update = this.transaction !== 'T_NEW_CATALOG';
    let lists: ProductGroupList[] = [];
    let places: Entry[] = [];
    const flush = async () => {
      const results = await setProductGroups(ctx, lists);
      results.forEach((result, j) => {
        if (result.status === 200) return;
        const entry = places[j]!;
        const supplierPid = lists[j]!.supplierPid;
        // A mapping that names no product is a mistake of the file: it fails the import as a whole.
        if (result.code === 'PRODUCT_NOT_FOUND') throw noSuchProduct(supplierPid, entry, update);
        refuse(supplierPid, result.error ?? 'refused', entry.line, entry.column);
      });
      lists = [];
      places = [];
    };
    for (const [supplierPid, entry] of this.entries) {
      this.entries.delete(supplierPid);
      if (skipped.has(supplierPid)) continue;
      if (update) lists.push({ supplierPid, changes: entry.ops });
      else if (!inFile.has(supplierPid)) throw noSuchProduct(supplierPid, entry, update);
      // A whole catalogue's mappings (none removes) list the product's groups in file order.
      else lists.push({ supplierPid, groupIds: [...new Set(entry.ops.map((op) => op.groupId))] });
      places.push(entry);
      if (lists.length === batchSize) await flush();
    }
    if (lists.length > 0) await flush();
  }
}

function noSuchProduct(supplierPid: string, entry: Entry, update: boolean): BmecatError {
  const where = update ? 'neither the file nor the workspace holds' : 'the file does not hold';
  return new BmecatError(
    `PRODUCT_TO_CATALOGGROUP_MAP names the product '${supplierPid}', which ${where}`,
    entry.line,
    entry.column,
  );
}
