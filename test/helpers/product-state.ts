import type { Application } from '../../src/app/application.js';
import { getCatalogueVersion } from '../../src/domain/changes/change-counter.service.js';
import type { BulkProductResultDto } from '../../src/domain/products/product-bulk.schemas.js';
import { getProductSheet, type ProductSheet } from '../../src/domain/products/product-sheet.service.js';
import { getProductVersion, listProducts } from '../../src/domain/products/product.service.js';

/**
 * What a workspace holds of the products whose supplierPids start with `prefix-`, in a form two
 * workspaces written by two paths can be compared in (ids replaced by supplierPids).
 */
export interface ProductState {
  /** supplierPid by id. */
  pidOf: Map<number, string>;
  /** Revision by supplierPid. */
  revisions: Map<string, number>;
  /** Sheets by supplierPid, ids replaced by supplierPids. */
  sheets: Map<string, unknown>;
  counter: number;
}

const named = (pidOf: Map<number, string>, id: number | null) =>
  id === null ? null : (pidOf.get(id) ?? `unknown ${id}`);

export async function productState(app: Application, prefix: string): Promise<ProductState> {
  const owner = app.ownerContext();
  const products = (await listProducts(owner, { all: true })).filter((p) =>
    p.supplierPid.startsWith(`${prefix}-`),
  );
  const pidOf = new Map(products.map((p) => [p.id, p.supplierPid]));
  const revisions = new Map<string, number>();
  const sheets = new Map<string, unknown>();
  for (const p of products) {
    revisions.set(p.supplierPid, (await getProductVersion(owner, p.id))!.revision);
    const sheet: ProductSheet = await getProductSheet(owner, p.id);
    sheets.set(p.supplierPid, {
      ...sheet,
      product: {
        ...sheet.product,
        id: named(pidOf, sheet.product.id),
        masterProductId: named(pidOf, sheet.product.masterProductId),
      },
      variants: sheet.variants.map((v) => ({ ...v, id: named(pidOf, v.id) })),
    });
  }
  return { pidOf, revisions, sheets, counter: (await getCatalogueVersion(owner)).counter };
}

/** A result with its id as a supplierPid, and product ids in its sentence as supplierPids. */
export const comparableResult = (result: BulkProductResultDto, pidOf: Map<number, string>) => ({
  ...result,
  id: named(pidOf, result.id),
  error: result.error?.replace(/\b([Pp]roduct) (\d+)\b/g, (_, word: string, id: string) => {
    return `${word} ${named(pidOf, Number(id))}`;
  }),
});

/** How much each product's revision rose; a new product counts from 0. */
export const revisionRises = (before: ProductState, after: ProductState) =>
  new Map([...after.revisions].map(([pid, rev]) => [pid, rev - (before.revisions.get(pid) ?? 0)]));

/** The supplierPids whose revision rose. */
export const touchedProducts = (rises: Map<string, number>) =>
  [...rises].filter(([, rise]) => rise > 0).map(([pid]) => pid);
