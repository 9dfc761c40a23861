import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { LANGUAGE_NEUTRAL, normalizeLanguage } from '../languages/language.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { touchProducts } from '../products/product.repository.js';
import { lockProduct, productNotFound, requireProduct } from '../products/product.guards.js';
import type { TextEntry } from '../texts/text.repository.js';
import { checkLength, checkTextValue } from '../texts/text.rules.js';
import { parseEntries } from './entry-list.rules.js';
import {
  deleteProductFeature,
  deleteValue,
  ensureDefinition,
  findProductFeature,
  insertProductFeature,
  listProductFeatures,
  setDefaultUnit,
  setDefinitionNames,
  setProductFeatureUnit,
  setValues,
  type ProductFeatureRow,
} from './feature.repository.js';
import { checkFtidref, checkFunit, FEATURE_NAME_MAX, normalizeFeatureValues } from './feature.rules.js';
import type { FeatureDefinitionInput, FeatureDto, SetFeatureInput } from './feature.types.js';

export type { FeatureDto, SetFeatureInput, FeatureDefinitionInput } from './feature.types.js';

function featureNotFound(productId: number, ftidref: string): NotFoundError {
  return new NotFoundError(`Product ${productId} has no feature '${ftidref}'`, 'FEATURE_NOT_FOUND');
}

function toDto(feature: ProductFeatureRow): FeatureDto {
  return {
    ftidref: feature.ftidref,
    funit: feature.funit,
    names: parseEntries(feature.names_json),
    values: parseEntries(feature.values_json),
  };
}

/** The product's feature (404 for the product, then the feature); `productCheck` is lockProduct in a write. */
async function requireFeature(
  db: WorkspaceDb,
  productId: number,
  ftidref: string,
  productCheck: (db: WorkspaceDb, productId: number) => Promise<unknown> = requireProduct,
): Promise<ProductFeatureRow> {
  await productCheck(db, productId);
  const feature = await findProductFeature(db, productId, ftidref);
  if (!feature) throw featureNotFound(productId, ftidref);
  return feature;
}

/** All features of a product in their order: the order in which they were added (BMEcat keeps feature order). */
/**
 * listFeatures as the JSON text the database writes (GET /api/product/{id}/features sends it as it
 * is); the single reads (getFeature) build their DTO here, and tests compare the two.
 */
export async function listFeaturesJson(context: RequestContext, productId: number): Promise<string> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const json = await ctx.reads.featuresJson(productId);
  if (json === undefined) throw productNotFound(productId);
  return json;
}

export async function listFeatures(context: RequestContext, productId: number): Promise<FeatureDto[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const db = ctx.db;
  const features = await listProductFeatures(db, productId);
  if (features.length === 0) await requireProduct(db, productId);
  return features.map(toDto);
}

export async function getFeature(
  context: RequestContext,
  productId: number,
  ftidref: string,
): Promise<FeatureDto> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const db = ctx.db;
  return toDto(await requireFeature(db, productId, ftidref));
}

export async function getFeatureValue(
  context: RequestContext,
  productId: number,
  ftidref: string,
  language: string,
): Promise<TextEntry> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const lang = normalizeLanguage(language, 'lang');
  const db = ctx.db;
  const values = parseEntries((await requireFeature(db, productId, ftidref)).values_json);
  // A value without language (a number, a code: BMEcat's FVALUE without lang) is stored under
  // zxx and answers for every language that has none of its own (decisions.md), as itself.
  const value =
    values.find((entry) => entry.lang === lang) ?? values.find((entry) => entry.lang === LANGUAGE_NEUTRAL);
  if (!value) {
    throw new NotFoundError(
      `Feature '${ftidref}' of product ${productId} has no value in language ${lang}`,
      'FEATURE_VALUE_NOT_FOUND',
    );
  }
  return value;
}

/**
 * Adds the feature to the product when it has none of that ftidref (creating the
 * definition, without names, when the ftidref is new) and returns its definition id.
 * The product is locked first (lockProduct): a delete committing between a plain read and
 * the insert made the insert fail on the foreign key (500); now it is 404 or success.
 */
async function ensureProductFeature(
  db: WorkspaceDb,
  productId: number,
  ftidref: string,
  funit: string | null | undefined,
): Promise<number> {
  await lockProduct(db, productId);
  const existing = await findProductFeature(db, productId, ftidref);
  if (existing) {
    if (funit !== undefined) await setProductFeatureUnit(db, productId, existing.feature_id, funit);
    return existing.feature_id;
  }
  const featureId = await ensureDefinition(db, ftidref);
  const added = await insertProductFeature(db, productId, featureId, funit ?? null);
  if (!added && funit !== undefined) await setProductFeatureUnit(db, productId, featureId, funit);
  return featureId;
}

/**
 * Sets the values of the languages named (other languages keep theirs), creating the
 * feature when the product has none of that ftidref; `funit`, when sent, replaces the unit.
 */
export async function setFeature(
  context: RequestContext,
  productId: number,
  ftidref: string,
  input: SetFeatureInput,
): Promise<FeatureDto> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  checkFtidref(ftidref);
  if (input.ftidref !== undefined && input.ftidref !== ftidref) {
    throw new ValidationError(
      `ftidref in the body ('${input.ftidref}') differs from the ftidref in the path ('${ftidref}')`,
      'FTIDREF_MISMATCH',
    );
  }
  checkFunit(input.funit);
  const values = normalizeFeatureValues(input.values);
  return ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    const featureId = await ensureProductFeature(trx, productId, ftidref, input.funit);
    await setValues(trx, productId, featureId, values);
    await touchProducts(trx, [productId], at);
    return toDto((await findProductFeature(trx, productId, ftidref))!);
  });
}

/** Sets the value of one language (creating the feature when needed). */
export async function setFeatureValue(
  context: RequestContext,
  productId: number,
  ftidref: string,
  language: string,
  value: string,
): Promise<TextEntry> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  checkFtidref(ftidref);
  const lang = normalizeLanguage(language, 'lang');
  checkTextValue(value);
  await ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    const featureId = await ensureProductFeature(trx, productId, ftidref, undefined);
    await setValues(trx, productId, featureId, [{ lang, value }]);
    await touchProducts(trx, [productId], at);
  });
  return { lang, value };
}

/** Removes the whole feature (all its values) from the product; the definition stays. */
export async function deleteFeature(
  context: RequestContext,
  productId: number,
  ftidref: string,
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  await ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    const feature = await requireFeature(trx, productId, ftidref, lockProduct);
    await deleteProductFeature(trx, productId, feature.feature_id);
    await touchProducts(trx, [productId], at);
  });
}

/** Removes the value of one language; the feature stays, possibly with no values. */
export async function deleteFeatureValue(
  context: RequestContext,
  productId: number,
  ftidref: string,
  language: string,
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const lang = normalizeLanguage(language, 'lang');
  await ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    const feature = await requireFeature(trx, productId, ftidref, lockProduct);
    if (!(await deleteValue(trx, productId, feature.feature_id, lang))) {
      throw new NotFoundError(
        `Feature '${ftidref}' of product ${productId} has no value in language ${lang}`,
        'FEATURE_VALUE_NOT_FOUND',
      );
    }
    await touchProducts(trx, [productId], at);
  });
}

/**
 * Creates or updates a feature definition (FT_IDREF, default unit, names per language),
 * as BMEcat feature templates do. Not on the REST interface (the spec has no endpoint);
 * used by the demo catalogue and imports.
 */
export async function defineFeature(context: RequestContext, input: FeatureDefinitionInput): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  checkFtidref(input.ftidref);
  checkFunit(input.defaultUnit);
  const names = (input.names ?? []).map((n, i) => {
    checkLength(n.name, `names[${i}].name`, FEATURE_NAME_MAX);
    return { lang: normalizeLanguage(n.lang, `names[${i}].lang`), name: n.name };
  });
  await ctx.transaction(async (trx) => {
    const featureId = await ensureDefinition(trx, input.ftidref);
    if (input.defaultUnit !== undefined) await setDefaultUnit(trx, featureId, input.defaultUnit);
    await setDefinitionNames(
      trx,
      featureId,
      names.map(({ lang, name }) => ({ lang, value: name })),
    );
  });
}
