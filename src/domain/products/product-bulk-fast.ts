import type { WorkspaceContext } from '../context.js';
import type { DomainError } from '../errors.js';
import { entriesJson, mergeEntries, parseEntries } from '../features/entry-list.rules.js';
import type { TextEntry } from '../texts/text.repository.js';
import { planBatch, type Pending, type PlannedDocument } from './product-bulk-plan.js';
import {
  changeProducts,
  ensureDefinitions,
  findBulkKeys,
  findStoredFeatures,
  findGroupIds,
  insertProducts,
  touchOnly,
  upsertProductFeatures,
  upsertTexts,
  type BulkKeyRow,
  type NewProductRow,
  type ProductFeatureRow,
  type TextRow,
} from './product-bulk-write.repository.js';
import { writeBatchParts } from './product-bulk-parts.js';
import { lockProducts } from './product-lock.repository.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { nameLanguage } from './product.service.js';

/**
 * The bulk upsert's fast path: a whole batch in about a dozen statements (reads of what the batch
 * names, the plan in memory, then one statement per table, the model's parts included: two per
 * part sent, product-bulk-parts.ts), where writing document by document
 * through the single services costs about a hundred statements per document. Stores what those
 * services store; the caller runs it in a savepoint and falls back to them when it fails.
 */

export type Outcome =
  { index: number; id: number; status: 201 | 200 } | { index: number; error: DomainError };

const unique = <T>(values: Iterable<T>) => [...new Set(values)];

export async function writeBatch(ctx: WorkspaceContext, pending: readonly Pending[]): Promise<Outcome[]> {
  const db = ctx.db;
  const at = ctx.clock.now().toISOString();
  const groupIds = pending.flatMap(({ doc }) => [
    ...(typeof doc.groupId === 'number' ? [doc.groupId] : []),
    ...(doc.groupIds ?? []),
  ]);
  // The groups first, then the products: the order in which an assignment to a group locks them.
  const groups = await findGroupIds(db, unique(groupIds));
  const { planned, refused } = await planBatch(pending, {
    products: await lockNamed(db, namedPids(pending)),
    groups,
    nameLanguage: (language) => nameLanguage(ctx, language),
  });

  const { byFtidref: definitions } = await ensureDefinitions(
    db,
    unique(
      planned.flatMap((p) => [
        ...p.features.map((f) => f.ftidref),
        ...(p.parts.allFeatures ?? []).map((o) => o.ftidref),
      ]),
    ),
  );
  await insertNew(
    ctx,
    planned.filter((p) => p.created && p.master === null),
    at,
  );
  await insertNew(
    ctx,
    planned.filter((p) => p.created && p.master !== null),
    at,
  );
  const changed = planned.filter((p) => !p.created && p.touched);
  await changeProducts(
    db,
    changed.map((p) => ({ id: p.ref.id!, fields: p.fields, groupId: p.groupId })),
    at,
  );
  // A change to a variant (creating it included) is a change to its main product.
  const masters = [...changed, ...planned.filter((p) => p.created)].flatMap((p) =>
    p.master ? [p.master.id!] : [],
  );
  await touchOnly(db, unique(masters), at);
  await writeDetails(ctx, planned, definitions);
  await writeBatchParts(db, planned, definitions);

  return [
    ...planned.map((p): Outcome => ({ index: p.index, id: p.ref.id!, status: p.created ? 201 : 200 })),
    ...refused.map((r): Outcome => ({ index: r.index, error: r.error() })),
  ];
}

/** The supplierPids a batch names: its documents' and their main products'. */
export function namedPids(pending: readonly Pending[]): string[] {
  return unique(
    pending.flatMap(({ doc }) =>
      doc.masterSupplierPid === undefined ? [doc.supplierPid] : [doc.supplierPid, doc.masterSupplierPid],
    ),
  );
}

/**
 * The stored products the batch names, locked with their main products in id order before any is
 * written (product-lock.repository.ts), and as they are once locked: the updates below locked them
 * in the batch's order, which deadlocked with a bulk delete of the same products in another order.
 */
export async function lockNamed(db: WorkspaceDb, pids: readonly string[]): Promise<BulkKeyRow[]> {
  const found = await findBulkKeys(db, pids);
  const wanted = new Set(pids);
  const locked = await lockProducts(
    db,
    found.map((row) => row.id),
    'change',
  );
  return locked.filter((row) => wanted.has(row.supplier_pid));
}

async function insertNew(ctx: WorkspaceContext, docs: readonly PlannedDocument[], at: string) {
  const rows = docs.map((p): NewProductRow => ({
    supplierPid: p.supplierPid,
    fields: p.fields,
    masterId: p.master?.id ?? null,
    groupId: p.groupId ?? null,
  }));
  const ids = await insertProducts(ctx.db, rows, at);
  for (const p of docs) p.ref.id = ids.get(p.supplierPid);
}

/**
 * Texts, features (new ones after the product's others, in the document's order) and their
 * values, merged into the stored ones (the products are locked: lockNamed, insertNew).
 */
async function writeDetails(
  ctx: WorkspaceContext,
  planned: readonly PlannedDocument[],
  definitions: ReadonlyMap<string, number>,
) {
  const withFeatures = planned.filter((p) => p.features.length > 0);
  const places = new Map<number, { last: number; has: Map<number, FeatureState> }>();
  for (const p of withFeatures) places.set(p.ref.id!, { last: 0, has: new Map() });
  const stored = withFeatures.filter((p) => !p.created).map((p) => p.ref.id!);
  for (const row of await findStoredFeatures(ctx.db, stored)) {
    const place = places.get(row.product_id)!;
    place.last = Math.max(place.last, row.position);
    if (row.occurrence === 1)
      place.has.set(row.feature_id, { ...row, values: parseEntries(row.values_json) });
  }
  const texts: TextRow[] = [];
  const changed = new Set<FeatureState>();
  for (const p of planned) {
    const id = p.ref.id!;
    for (const [kind, lang, value] of p.texts.values()) texts.push([id, kind, lang, value]);
    for (const f of p.features) {
      const featureId = definitions.get(f.ftidref)!;
      const place = places.get(id)!;
      let feature = place.has.get(featureId);
      if (!feature) {
        feature = { product_id: id, feature_id: featureId, funit: null, position: ++place.last, values: [] };
        place.has.set(featureId, feature);
      }
      if (f.funit !== undefined) feature.funit = f.funit;
      feature.values = mergeEntries(feature.values, f.values);
      changed.add(feature);
    }
  }
  await upsertTexts(ctx.db, texts);
  await upsertProductFeatures(
    ctx.db,
    [...changed].map((f): ProductFeatureRow => [
      f.product_id,
      f.feature_id,
      f.funit,
      f.position,
      entriesJson(f.values),
    ]),
  );
}

interface FeatureState {
  product_id: number;
  feature_id: number;
  funit: string | null;
  position: number;
  values: TextEntry[];
}
