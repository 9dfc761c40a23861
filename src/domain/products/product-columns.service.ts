import {
  PRODUCT_COLUMNS_FIELDS,
  type FeatureColumnsRow,
  type ProductColumnsRow,
} from '../../db/catalogue/product-columns-sql.js';
import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';

/**
 * Products as a spreadsheet's columns show them, a page at a time, read set-based: the product
 * rows with the texts the columns ask for as columns of their own, then only the features the
 * columns ask for, as a flat list (one entry per feature's first occurrence). A page is read in one snapshot; memory holds that page only.
 * The rows are handed on as the reads give them (arrays, texts and features ordered by product):
 * the export of 100,000 products reads some 1.6 million of them, and a second object for each was
 * garbage to no purpose (docs/spreadsheets.md, "Memory and speed").
 */

export interface ProductColumnsWant {
  /** Each a column of the product rows, after the fields, in this order. */
  texts: readonly { kind: 'short' | 'long'; lang: string }[];
  ftidrefs: readonly string[];
}

export type { FeatureColumnsRow, ProductColumnsRow };

export interface ProductColumnsPage {
  /**
   * The page's products that exist, in id order: id, supplierPid, the main product's supplierPid
   * (null for a main product), the first group's id, updatedAt, then the fields (PRODUCT_COLUMN),
   * then the value of each text `want` named (null: none), from TEXT_COLUMNS on.
   * Ids may come as numbers or digit strings (PostgreSQL's bigint).
   */
  products: ProductColumnsRow[];
  /**
   * First occurrences, ordered by product: product id, ftidref, the unit shown (its own, else the
   * definition's) and every value in stored order as the stored JSON list (entry-list.rules.ts).
   */
  features: FeatureColumnsRow[];
}

/** Where each product field is in a product row. */
export const PRODUCT_COLUMN = Object.fromEntries(
  PRODUCT_FIELDS.map((f, i) => [f.key, PRODUCT_COLUMNS_FIELDS + i]),
) as Record<ProductFieldKey, number>;

/** Where a product row's first text is. */
export const TEXT_COLUMNS = PRODUCT_COLUMNS_FIELDS + PRODUCT_FIELDS.length;

export const TEXT_KIND: Record<'short' | 'long', TextKind> = {
  short: 'DESCRIPTIONSHORT',
  long: 'DESCRIPTIONLONG',
};

export async function readProductColumnsPage(
  context: RequestContext,
  ids: readonly number[],
  want: ProductColumnsWant,
): Promise<ProductColumnsPage> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return ctx.reads.productColumns({
    ids,
    texts: want.texts.map(({ kind, lang }) => ({ kind: TEXT_KIND[kind], lang })),
    ftidrefs: want.ftidrefs,
  });
}
