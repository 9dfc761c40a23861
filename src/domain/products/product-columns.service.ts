import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { parseEntries } from '../features/entry-list.rules.js';
import type { TextEntry } from '../texts/text.repository.js';

/**
 * Products as a spreadsheet's columns show them, a page at a time, read set-based: the product
 * rows, then only the texts and features the columns ask for, as flat lists (one entry per text,
 * one per feature's first occurrence). A page is read in one snapshot; memory holds that page only.
 */

export interface ProductColumnsWant {
  textKinds: readonly ('short' | 'long')[];
  textLangs: readonly string[];
  ftidrefs: readonly string[];
}

export interface ProductColumnsProduct {
  id: number;
  supplierPid: string;
  /** A variant's main product's supplierPid; null for a main product. */
  masterSupplierPid: string | null;
  /** The first group. */
  groupId: number | null;
  updatedAt: string;
  fields: Record<ProductFieldKey, string | null>;
}

export interface ProductColumnsPage {
  /** The page's products that exist, in id order. */
  products: ProductColumnsProduct[];
  texts: { productId: number; kind: 'short' | 'long'; lang: string; value: string }[];
  /** First occurrences: the unit shown (its own, else the definition's) and every value in stored order. */
  features: { productId: number; ftidref: string; unit: string | null; values: TextEntry[] }[];
}

const KINDS: Record<'short' | 'long', TextKind> = { short: 'DESCRIPTIONSHORT', long: 'DESCRIPTIONLONG' };

export async function readProductColumnsPage(
  context: RequestContext,
  ids: readonly number[],
  want: ProductColumnsWant,
): Promise<ProductColumnsPage> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const rows = await ctx.reads.productColumns({
    ids,
    textKinds: want.textKinds.map((k) => KINDS[k]),
    textLangs: want.textLangs,
    ftidrefs: want.ftidrefs,
  });
  return {
    products: rows.products.map((row) => {
      const fields = {} as Record<ProductFieldKey, string | null>;
      for (const f of PRODUCT_FIELDS) fields[f.key] = (row[f.column] as string | null) ?? null;
      return {
        id: Number(row.id),
        supplierPid: row.supplier_pid,
        masterSupplierPid: row.master_pid,
        groupId: row.group_id === null ? null : Number(row.group_id),
        updatedAt: row.updated_at,
        fields,
      };
    }),
    texts: rows.texts.map((t) => ({
      productId: Number(t.product_id),
      kind: t.kind === 'DESCRIPTIONSHORT' ? 'short' : 'long',
      lang: t.lang,
      value: t.value,
    })),
    features: rows.features.map((f) => ({
      productId: Number(f.product_id),
      ftidref: f.ftidref,
      unit: f.unit,
      values: parseEntries(f.values_json),
    })),
  };
}
