import { sentFields, type ProductFieldValues } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { DomainError } from '../errors.js';
import { Turns } from '../fair-turns.js';
import { checkFtidref, checkFunit, normalizeFeatureValues } from '../features/feature.rules.js';
import { groupNotFound } from '../groups/group.service.js';
import type { TextEntry } from '../texts/text.repository.js';
import type { BulkProductDocumentInput } from './product-bulk.schemas.js';
import { masterCannotChange, masterNotFound } from './product-bulk.rules.js';
import type { BulkKeyRow } from './product-bulk-write.repository.js';
import { hasParts, type CheckedParts } from './product-parts.service.js';
import { checkDetails } from './product-sheet.service.js';
import { checkProductInput, variantOfVariant } from './product.rules.js';

/**
 * The bulk upsert's decisions for a whole batch, made in memory before anything is written: which
 * documents are refused (with the error the per-document path would give: the same rule
 * functions, checked in the same order) and what the others change. Documents are taken in the
 * order the per-document path writes them (main products first, then variants), and the
 * products a document creates are known to the ones after it, so a variant may name a main
 * product of the same batch and a variant of a variant is refused as it would be there.
 */

export interface Pending {
  index: number;
  doc: BulkProductDocumentInput;
}

/** A product's id; for a product the batch creates, filled in once it is inserted. */
export interface ProductRef {
  id: number | undefined;
}

/**
 * The model's parts a document sends, checked (product-parts.rules.ts): each replaces the
 * product's part as a whole. `extraGroups`: the groups after the first of `groupIds`.
 */
export type PartsPlan = Omit<CheckedParts, 'groupIds'> & { extraGroups?: number[] };

export interface FeaturePlan {
  ftidref: string;
  /** undefined: the unit stays (a new feature gets none). */
  funit: string | null | undefined;
  values: TextEntry[];
}

export interface PlannedDocument {
  index: number;
  supplierPid: string;
  ref: ProductRef;
  /** Created by the batch (with these fields), else an existing product to change. */
  created: boolean;
  /** The main product of a variant (new ones: possibly created by the batch too). */
  master: ProductRef | null;
  /** The text fields sent (db/catalogue/product-fields.ts). */
  fields: ProductFieldValues;
  /** undefined: the group stays (a new product gets none). */
  groupId?: number | null;
  /** Texts to set, one per (kind, language): `name` first, so that a short text of its language wins. */
  texts: Map<string, [TextKind, string, string]>;
  features: FeaturePlan[];
  parts: PartsPlan;
  /** An existing product the document changes (a document with nothing to change touches nothing). */
  touched: boolean;
}

export interface Refusal {
  index: number;
  /** Built when the batch is written: its sentence may name ids of products the batch creates. */
  error: () => DomainError;
}

/** A product as the batch sees it: stored, or created by a document before. */
interface Known {
  ref: ProductRef;
  master: ProductRef | null;
  groupId: number | null;
  stored: boolean;
}

export interface BatchFacts {
  /** Stored products named by the batch (as supplierPid or masterSupplierPid). */
  products: readonly BulkKeyRow[];
  /** The groups named that exist. */
  groups: ReadonlySet<number>;
  /** ProductDto.name's language for a `language` sent (or not): nameLanguage of the service. */
  nameLanguage: (language: string | undefined) => string;
}

export async function planBatch(pending: readonly Pending[], facts: BatchFacts) {
  const known = new Map<string, Known>();
  for (const row of facts.products) {
    known.set(row.supplier_pid, {
      ref: { id: row.id },
      master: row.master_id === null ? null : { id: row.master_id },
      groupId: row.group_id,
      stored: true,
    });
  }
  const ordered = [
    ...pending.filter((p) => p.doc.masterSupplierPid === undefined),
    ...pending.filter((p) => p.doc.masterSupplierPid !== undefined),
  ];
  const planned: PlannedDocument[] = [];
  const refused: Refusal[] = [];
  // Inside the batch's transaction: its statements give the event loop turns (db/sqlite-dialect.ts),
  // and so does the plan, about 60 ms for 1,000 full documents.
  const turns = new Turns();
  for (const { index, doc } of ordered) {
    await turns.take();
    try {
      const plan = planDocument(index, doc, known, facts);
      if (plan.created)
        known.set(plan.supplierPid, { ref: plan.ref, master: plan.master, groupId: null, stored: false });
      planned.push(plan);
    } catch (error) {
      if (error instanceof DeferredRefusal) refused.push({ index, error: error.build });
      else if (error instanceof DomainError) refused.push({ index, error: () => error });
      else throw error;
    }
  }
  return { planned, refused };
}

/** A refusal whose sentence names products by ids that are known only after the inserts. */
class DeferredRefusal {
  constructor(readonly build: () => DomainError) {}
}

function planDocument(
  index: number,
  doc: BulkProductDocumentInput,
  known: Map<string, Known>,
  facts: BatchFacts,
) {
  const { supplierPid, masterSupplierPid, groupId, shortTexts, longTexts, features, ...rest } = doc;
  const { keywords, media, groupIds, fragments, allFeatures, ...fields } = rest;
  const existing = known.get(supplierPid);
  let master: Known | undefined;
  if (masterSupplierPid !== undefined) {
    master = known.get(masterSupplierPid);
    if (!master) throw masterNotFound(masterSupplierPid);
    // A main product the batch creates is never the current one (its id is new).
    const current = existing?.master?.id;
    if (existing && (current === undefined || current !== master.ref.id)) {
      throw masterCannotChange(supplierPid, current ?? null);
    }
  }
  // The order of the per-document path (applyDocument, then the sheet's write): details with the
  // parts, the groups, the product's fields, its main product, features. A create there takes a
  // null groupId as none, so that groupIds beside it is no conflict; an update does not.
  const details = checkDetails({
    shortTexts,
    longTexts,
    features,
    keywords,
    media,
    groupIds,
    fragments,
    allFeatures,
    groupId: existing ? groupId : (groupId ?? undefined),
  });
  if (typeof groupId === 'number' && !facts.groups.has(groupId)) throw groupNotFound(groupId);
  for (const id of details.parts.groupIds ?? []) if (!facts.groups.has(id)) throw groupNotFound(id);
  const language = checkProductInput(existing ? fields : { ...fields, supplierPid }, !existing);
  if (!existing && master?.master) {
    const [masterRef, itsMaster] = [master.ref, master.master];
    throw new DeferredRefusal(() => variantOfVariant(masterRef.id!, itsMaster.id!));
  }
  const featurePlans = details.features.map(({ ftidref, funit, values }): FeaturePlan => {
    checkFtidref(ftidref);
    checkFunit(funit);
    return { ftidref, funit, values: normalizeFeatureValues(values) };
  });

  const sent = sentFields(fields);
  const texts = new Map<string, [TextKind, string, string]>();
  const setText = (kind: TextKind, lang: string, value: string) =>
    texts.set(`${kind} ${lang}`, [kind, lang, value]);
  if (fields.name !== undefined) setText('DESCRIPTIONSHORT', facts.nameLanguage(language), fields.name);
  for (const t of details.shortTexts) setText('DESCRIPTIONSHORT', t.lang, t.value);
  for (const t of details.longTexts) setText('DESCRIPTIONLONG', t.lang, t.value);
  const { groupIds: groupList, ...otherParts } = details.parts;
  const plan: PlannedDocument = {
    index,
    supplierPid,
    ref: existing ? existing.ref : { id: undefined },
    created: !existing,
    master: existing ? existing.master : (master?.ref ?? null),
    fields: sent,
    texts,
    features: featurePlans,
    parts: groupList ? { ...otherParts, extraGroups: groupList.slice(1) } : otherParts,
    touched: false,
  };
  // groupIds: the first is the product's group (none for an empty list), the others are extra.
  const group = groupList ? (groupList[0] ?? null) : groupId;
  if (!existing) {
    plan.groupId = group ?? null;
    return plan;
  }
  // An update touches the product when it sends anything at all, as the single services do
  // (setting a text to the value it has still counts, and so does every part sent); a group it
  // is already in is no change.
  if (group !== undefined && group !== existing.groupId) plan.groupId = group;
  plan.touched =
    Object.keys(sent).length > 0 ||
    texts.size > 0 ||
    featurePlans.length > 0 ||
    plan.groupId !== undefined ||
    hasParts(details.parts);
  return plan;
}
