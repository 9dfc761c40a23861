import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { parseEntries } from '../features/entry-list.rules.js';
import { findFeatureStates, findProductStates, findTextStates } from './product-state.repository.js';

/** A stored feature's first occurrence as a comparison needs it. */
export interface FeatureState {
  /** The unit it shows (its own, else the definition's), as the product sheet shows it. */
  unit: string | null;
  /** Its own unit: null when it shows the definition's. */
  ownUnit: string | null;
  /** Value by language. */
  values: Map<string, string>;
}

/**
 * What an import compares a product with, read lean: its key, main product, group, fields, texts
 * and the first occurrence of each feature. Three statements for a whole batch, against a sheet
 * (keywords, media, fragments, JSON built and parsed) per product.
 */
export interface ProductState {
  id: number;
  supplierPid: string;
  masterSupplierPid: string | null;
  groupId: number | null;
  fields: Record<ProductFieldKey, string | null>;
  shortTexts: Map<string, string>;
  longTexts: Map<string, string>;
  features: Map<string, FeatureState>;
}

/** The stored products of these supplierPids (those that exist), by supplierPid. */
export async function readProductStates(
  context: RequestContext,
  supplierPids: readonly string[],
): Promise<Map<string, ProductState>> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const rows = await findProductStates(ctx.db, supplierPids);
  const byId = new Map<number, ProductState>();
  const states = new Map<string, ProductState>();
  for (const row of rows) {
    const fields = {} as Record<ProductFieldKey, string | null>;
    for (const f of PRODUCT_FIELDS) fields[f.key] = (row[f.column] as string | null) ?? null;
    const state: ProductState = {
      id: row.id,
      supplierPid: row.supplier_pid,
      masterSupplierPid: row.master_pid,
      groupId: row.group_id,
      fields,
      shortTexts: new Map(),
      longTexts: new Map(),
      features: new Map(),
    };
    byId.set(row.id, state);
    states.set(row.supplier_pid, state);
  }
  const ids = [...byId.keys()];
  for (const text of await findTextStates(ctx.db, ids)) {
    const state = byId.get(text.product_id)!;
    (text.kind === 'DESCRIPTIONSHORT' ? state.shortTexts : state.longTexts).set(text.lang, text.value);
  }
  for (const feature of await findFeatureStates(ctx.db, ids)) {
    byId.get(feature.product_id)!.features.set(feature.ftidref, {
      unit: feature.unit,
      ownUnit: feature.own_unit,
      values: new Map(parseEntries(feature.values_json).map((e) => [e.lang, e.value])),
    });
  }
  return states;
}
