import { expectedFeatures } from './expected-dtos.js';
import { sortedEntries, type Model, type MProduct } from './model.js';

/** updatedAt in the model: which products a successful call must touch, and which it may. */

/** Everything of a product a change to which must touch its updatedAt. */
export function fingerprint(p: MProduct): string {
  return JSON.stringify([
    p.supplierPid,
    p.supplierIdRef,
    p.ean,
    p.manufacturerPid,
    p.group,
    sortedEntries(p.texts.short),
    sortedEntries(p.texts.long),
    expectedFeatures(p),
  ]);
}

export interface Before {
  fingerprint: string;
  master: number | null;
}

/**
 * Moves updatedAt in the model after a successful call: "touched by every change to the product,
 * its texts, features or group membership; a change to a variant (including creating or deleting
 * one) also touches its main product". Returns the products a write reached without changing
 * anything, whose updatedAt may or may not have moved.
 */
export function touch(model: Model, before: Map<number, Before>, written: number[], now: string): number[] {
  const must = new Set<number>();
  for (const p of model.products.values()) {
    const was = before.get(p.id);
    if (was && was.fingerprint === fingerprint(p)) continue;
    must.add(p.id);
    if (p.master !== null) must.add(p.master);
  }
  for (const [id, was] of before) if (!model.products.has(id) && was.master !== null) must.add(was.master);
  for (const id of must) {
    const p = model.products.get(id);
    if (p) p.updatedAt = now;
  }
  const may = written.flatMap((id) => {
    const master = model.products.get(id)?.master;
    return master === null || master === undefined ? [id] : [id, master];
  });
  return may.filter((id) => !must.has(id) && model.products.has(id));
}
