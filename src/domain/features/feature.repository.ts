import { sql } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { TextEntry } from '../texts/text.repository.js';
import { entriesJson, mergeEntries, parseEntries } from './entry-list.rules.js';

export interface ProductFeatureRow {
  feature_id: number;
  ftidref: string;
  funit: string | null;
  /** TextEntryDto[] as stored (entry-list.rules.ts): parseEntries reads it. */
  values_json: string;
  names_json: string;
}

/** The id of a feature definition, created (without names or unit) when it does not exist. */
export async function ensureDefinition(db: WorkspaceDb, ftidref: string): Promise<number> {
  await db
    .insertInto('feature_def')
    .values({ ftidref, default_unit: null })
    .onConflict((oc) => oc.column('ftidref').doNothing())
    .execute();
  const row = await db
    .selectFrom('feature_def')
    .select('id')
    .where('ftidref', '=', ftidref)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setDefaultUnit(db: WorkspaceDb, featureId: number, unit: string | null): Promise<void> {
  await db.updateTable('feature_def').set({ default_unit: unit }).where('id', '=', featureId).execute();
}

/**
 * Sets the names of these languages (others keep theirs). The row is read, merged and written
 * back, so on PostgreSQL it is locked first: two definitions of one feature at once would
 * otherwise each keep only their own names.
 */
export async function setDefinitionNames(
  db: WorkspaceDb,
  featureId: number,
  names: readonly TextEntry[],
): Promise<void> {
  if (names.length === 0) return;
  const row = await db
    .selectFrom('feature_def')
    .select('names_json')
    .where('id', '=', featureId)
    .modifyEnd(catalogueSql(db).forUpdate)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('feature_def')
    .set({ names_json: entriesJson(mergeEntries(parseEntries(row.names_json), names)) })
    .where('id', '=', featureId)
    .execute();
}

function selectProductFeatures(db: WorkspaceDb, productId: number) {
  return db
    .selectFrom('product_feature as pf')
    .innerJoin('feature_def as fd', 'fd.id', 'pf.feature_id')
    .select([
      'pf.feature_id',
      'fd.ftidref',
      sql<string | null>`COALESCE(pf.funit, fd.default_unit)`.as('funit'),
      'pf.values_json',
      'fd.names_json',
    ])
    .where('pf.product_id', '=', productId)
    .where('pf.occurrence', '=', 1);
}

/**
 * The features of a product in their order (position = order of creation): the first occurrence of
 * each ftidref, the one the single feature routes address (the sheet has every occurrence).
 */
export async function listProductFeatures(db: WorkspaceDb, productId: number): Promise<ProductFeatureRow[]> {
  return selectProductFeatures(db, productId).orderBy('pf.position').orderBy('pf.feature_id').execute();
}

export async function findProductFeature(
  db: WorkspaceDb,
  productId: number,
  ftidref: string,
): Promise<ProductFeatureRow | undefined> {
  return selectProductFeatures(db, productId).where('fd.ftidref', '=', ftidref).executeTakeFirst();
}

/**
 * Adds a feature to a product at the end of its feature order (its first occurrence); false when
 * the product has it already (another request added it meanwhile: the primary key decides).
 */
export async function insertProductFeature(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  funit: string | null,
): Promise<boolean> {
  const result = await db
    .insertInto('product_feature')
    .values({
      product_id: productId,
      feature_id: featureId,
      funit,
      position: sql<number>`(SELECT COALESCE(MAX(position), 0) + 1 FROM product_feature WHERE product_id = ${productId})`,
    })
    .onConflict((oc) => oc.columns(['product_id', 'feature_id', 'occurrence']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function setProductFeatureUnit(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  funit: string | null,
): Promise<void> {
  await db
    .updateTable('product_feature')
    .set({ funit })
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('occurrence', '=', 1)
    .execute();
}

/** Removes the feature's first occurrence; the next one (if any) becomes the first. */
export async function deleteProductFeature(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
): Promise<void> {
  await db
    .deleteFrom('product_feature')
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('occurrence', '=', 1)
    .execute();
  // One by one upwards, so that no two rows ever share a key (PostgreSQL checks it per row).
  const later = await db
    .selectFrom('product_feature')
    .select('occurrence')
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .orderBy('occurrence')
    .execute();
  for (const { occurrence } of later) {
    await db
      .updateTable('product_feature')
      .set({ occurrence: occurrence - 1 })
      .where('product_id', '=', productId)
      .where('feature_id', '=', featureId)
      .where('occurrence', '=', occurrence)
      .execute();
  }
}

/**
 * Sets the values of these languages on the product's feature (others keep theirs). The caller
 * holds the product's lock (lockProduct): the list is read, merged and written back.
 */
export async function setValues(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  values: readonly TextEntry[],
): Promise<void> {
  if (values.length === 0) return;
  await writeValues(db, productId, featureId, (current) => mergeEntries(current, values));
}

/** Removes one language's value (the caller holds the product's lock); whether there was one. */
export async function deleteValue(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  lang: string,
): Promise<boolean> {
  let found = false;
  await writeValues(db, productId, featureId, (current) => {
    const rest = current.filter((entry) => entry.lang !== lang);
    found = rest.length < current.length;
    return found ? rest : undefined;
  });
  return found;
}

/** Rewrites the feature's values with `change` of the stored ones; undefined writes nothing. */
async function writeValues(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  change: (current: TextEntry[]) => TextEntry[] | undefined,
): Promise<void> {
  const row = await db
    .selectFrom('product_feature')
    .select('values_json')
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('occurrence', '=', 1)
    .executeTakeFirstOrThrow();
  const next = change(parseEntries(row.values_json));
  if (next === undefined) return;
  await db
    .updateTable('product_feature')
    .set({ values_json: entriesJson(next) })
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('occurrence', '=', 1)
    .execute();
}
