import { sql } from 'kysely';
import type { WorkspaceDb } from '../products/product.repository.js';
import type { TextEntry } from '../texts/text.repository.js';

export interface ProductFeatureRow {
  feature_id: number;
  ftidref: string;
  funit: string | null;
}

export interface FeatureTextRow {
  feature_id: number;
  lang: string;
  value: string;
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

export async function upsertDefinitionName(
  db: WorkspaceDb,
  featureId: number,
  lang: string,
  name: string,
): Promise<void> {
  await db
    .insertInto('feature_def_name')
    .values({ feature_id: featureId, lang, name })
    .onConflict((oc) => oc.columns(['feature_id', 'lang']).doUpdateSet({ name }))
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
    ])
    .where('pf.product_id', '=', productId);
}

/** The features of a product in their order (position = order of creation). */
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
 * Adds a feature to a product at the end of its feature order; false when the product has it
 * already (another request added it meanwhile: the primary key decides, not a read before).
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
    .onConflict((oc) => oc.columns(['product_id', 'feature_id']).doNothing())
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
    .execute();
}

export async function deleteProductFeature(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
): Promise<void> {
  await db
    .deleteFrom('product_feature')
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .execute();
}

/** Names of the definitions of a product's features (or of one feature), ordered by language. */
export async function listDefinitionNames(
  db: WorkspaceDb,
  productId: number,
  featureId?: number,
): Promise<FeatureTextRow[]> {
  let query = db
    .selectFrom('feature_def_name as n')
    .innerJoin('product_feature as pf', 'pf.feature_id', 'n.feature_id')
    .select(['n.feature_id', 'n.lang', 'n.name as value'])
    .where('pf.product_id', '=', productId);
  if (featureId !== undefined) query = query.where('n.feature_id', '=', featureId);
  return query.orderBy('n.feature_id').orderBy('n.lang').execute();
}

/** Values of a product's features (or of one feature), ordered by language. */
export async function listValues(
  db: WorkspaceDb,
  productId: number,
  featureId?: number,
): Promise<FeatureTextRow[]> {
  let query = db
    .selectFrom('product_feature_value')
    .select(['feature_id', 'lang', 'value'])
    .where('product_id', '=', productId);
  if (featureId !== undefined) query = query.where('feature_id', '=', featureId);
  return query.orderBy('feature_id').orderBy('lang').execute();
}

export async function findValue(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  lang: string,
): Promise<TextEntry | undefined> {
  return db
    .selectFrom('product_feature_value')
    .select(['lang', 'value'])
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('lang', '=', lang)
    .executeTakeFirst();
}

export async function upsertValue(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  lang: string,
  value: string,
): Promise<void> {
  await db
    .insertInto('product_feature_value')
    .values({ product_id: productId, feature_id: featureId, lang, value })
    .onConflict((oc) => oc.columns(['product_id', 'feature_id', 'lang']).doUpdateSet({ value }))
    .execute();
}

/** Returns whether there was a value to delete. */
export async function deleteValue(
  db: WorkspaceDb,
  productId: number,
  featureId: number,
  lang: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('product_feature_value')
    .where('product_id', '=', productId)
    .where('feature_id', '=', featureId)
    .where('lang', '=', lang)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
