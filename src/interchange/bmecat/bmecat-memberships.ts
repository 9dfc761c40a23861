import type { RequestContext } from '../../domain/context.js';
import { findGroupByCatalogId } from '../../domain/groups/catalog-group-id.service.js';
import { setProductGroups } from '../../domain/products/product-groups-bulk.service.js';
import { BmecatError } from './bmecat-reader.js';
import { storedSheet } from './bmecat-stored-products.js';

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
   * seconds), each mapping let go once its batch is written. `inFile` holds the file's SUPPLIER_PIDs; `skipped` those a continued import
   * left out; `refuse` fails or skips a product. A mapping that names no product fails the import
   * as a whole (nothing is written: the import's transaction), whichever batch it is met in.
   */
  async write(
    ctx: RequestContext,
    inFile: ReadonlySet<string>,
    skipped: ReadonlySet<string | null>,
    refuse: (supplierPid: string, message: string, line: number, column: number) => void,
    batchSize: number,
  ): Promise<void> {
    let documents: { supplierPid: string; groupIds: number[] }[] = [];
    let places: Entry[] = [];
    const flush = async () => {
      const results = await setProductGroups(ctx, documents);
      results.forEach((result, j) => {
        if (result.status === 200) return;
        const entry = places[j]!;
        refuse(documents[j]!.supplierPid, result.error ?? 'refused', entry.line, entry.column);
      });
      documents = [];
      places = [];
    };
    for (const [supplierPid, entry] of this.entries) {
      this.entries.delete(supplierPid);
      if (skipped.has(supplierPid)) continue;
      const groupIds = await this.groupsOf(ctx, supplierPid, entry, inFile);
      if (groupIds === undefined) {
        const where =
          this.transaction === 'T_NEW_CATALOG'
            ? 'the file does not hold'
            : 'neither the file nor the workspace holds';
        // A mapping that names no product is a mistake of the file: it fails the import as a whole.
        throw new BmecatError(
          `PRODUCT_TO_CATALOGGROUP_MAP names the product '${supplierPid}', which ${where}`,
          entry.line,
          entry.column,
        );
      }
      documents.push({ supplierPid, groupIds });
      places.push(entry);
      if (documents.length === batchSize) await flush();
    }
    if (documents.length > 0) await flush();
  }

  /** The product's whole group list after the file's mappings, or undefined for no such product. */
  private async groupsOf(
    ctx: RequestContext,
    supplierPid: string,
    entry: Entry,
    inFile: ReadonlySet<string>,
  ): Promise<number[] | undefined> {
    let groups: number[] = [];
    if (this.transaction === 'T_NEW_CATALOG') {
      if (!inFile.has(supplierPid)) return undefined;
    } else {
      const sheet = await storedSheet(ctx, supplierPid);
      if (!sheet) return undefined;
      groups = sheet.groups.map((g) => g.id);
    }
    for (const op of entry.ops) {
      if (op.remove) groups = groups.filter((g) => g !== op.groupId);
      else if (!groups.includes(op.groupId)) groups.push(op.groupId);
    }
    return groups;
  }
}
