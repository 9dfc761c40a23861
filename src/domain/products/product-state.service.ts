import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { findFeatureStates, findProductStates, type TextWant } from './product-state.repository.js';

/** A stored feature's first occurrence as a comparison needs it. */
export interface FeatureState {
  /** The unit it shows (its own, else the definition's), as the product sheet shows it. */
  unit: string | null;
  /** Its own unit: null when it shows the definition's. */
  ownUnit: string | null;
  /**
   * Its values as stored (entry-list.rules.ts), not parsed: an import compares the text its row
   * would store with it first, and reads the entries only where the two differ.
   */
  valuesJson: string;
}

/** The parts a comparison needs: the columns' texts (kind and language), and their features. */
export interface ProductStateWant {
  texts: readonly TextWant[];
  ftidrefs: readonly string[];
}

/**
 * What an import compares a product with, read lean: its key, main product, group, fields, and
 * the texts and first occurrences of the features that `want` names (a file's columns: the others
 * are never compared). Two statements for a whole batch (the products with their texts, the
 * features), against a sheet (keywords, media, fragments, JSON built and parsed) per product.
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
  want: ProductStateWant,
): Promise<Map<string, ProductState>> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const rows = await findProductStates(ctx.db, supplierPids, want.texts);
  const byId = new Map<number, ProductState>();
  const states = new Map<string, ProductState>();
  const textColumns = want.texts.map((_, i) => `text_${i}`);
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
    want.texts.forEach(({ kind, lang }, i) => {
      const value = row[textColumns[i]!] as string | null;
      if (value !== null) (kind === 'DESCRIPTIONSHORT' ? state.shortTexts : state.longTexts).set(lang, value);
    });
    byId.set(row.id, state);
    states.set(row.supplier_pid, state);
  }
  const ids = [...byId.keys()];
  for (const feature of await findFeatureStates(ctx.db, ids, want.ftidrefs)) {
    byId.get(feature.product_id)!.features.set(feature.ftidref, {
      unit: feature.unit,
      ownUnit: feature.own_unit,
      valuesJson: feature.values_json,
    });
  }
  return states;
}
