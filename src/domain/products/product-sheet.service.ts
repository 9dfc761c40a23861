import {
  RIGHTS,
  runInTransaction,
  useWorkspace,
  type RequestContext,
  type WorkspaceContext,
} from '../context.js';
import { atField, ValidationError } from '../errors.js';
import { setFeature } from '../features/feature.service.js';
import { assignProducts, reserveGroup, ungroupProduct } from '../groups/group.service.js';
import { getTexts, setText } from '../texts/text.service.js';
import { normalizeLanguageValues } from '../texts/text.rules.js';
import type { TextKind } from '../../db/workspace.schema.js';
import type { TextEntry } from '../texts/text.repository.js';
import { productNotFound } from './product.guards.js';
import {
  createProduct,
  getProductVersion,
  nameLanguage,
  updateProduct,
  type ProductVersion,
} from './product.service.js';
import type { SheetLanguages } from '../../db/catalogue/catalogue-sql.js';
import {
  checkExclusive,
  checkParts,
  partRows,
  reserveGroups,
  writeParts,
  type CheckedParts,
  type ModelParts,
} from './product-parts.service.js';
import type {
  CreateProductSheetInput,
  FeatureInputValue,
  ProductSheet,
  UpdateProductSheetInput,
} from './product-sheet.schemas.js';
import { SHEET_ROWS_MAX } from './product-limits.js';

export type { ProductSheet } from './product-sheet.schemas.js';

/**
 * The product sheet: a product with its texts, features, group and variants, read and
 * written as one. Composed of the single services, in one transaction, so that an agent or
 * an editor changes a product in one call and a failure leaves nothing half-written.
 */

function languages(ctx: WorkspaceContext): SheetLanguages {
  const fallback = ctx.workspace.defaultLanguage;
  const name = nameLanguage(ctx);
  return { name, group: ctx.language ?? fallback, fallback };
}

async function readSheetJson(ctx: WorkspaceContext, id: number): Promise<string> {
  const json = await ctx.reads.sheetJson(id, languages(ctx));
  if (json === undefined) throw productNotFound(id);
  return json;
}

async function readSheet(ctx: WorkspaceContext, id: number): Promise<ProductSheet> {
  return JSON.parse(await readSheetJson(ctx, id)) as ProductSheet;
}

/** The whole sheet of one product, read in one statement (all parts agree). */
export async function getProductSheet(context: RequestContext, id: number): Promise<ProductSheet> {
  return readSheet(useWorkspace(context, RIGHTS.read), id);
}

/**
 * The sheet with the revision it shows (an editor saves against it): the revision is read before
 * and after the sheet, and the read repeated while a change came between, so the two agree. Should
 * changes keep coming, the older revision is answered: a save is then refused (412), never let
 * through over a change the sheet does not show.
 */
export async function getVersionedProductSheet(
  context: RequestContext,
  id: number,
): Promise<{ sheet: ProductSheet; version: ProductVersion }> {
  const ctx = useWorkspace(context, RIGHTS.read);
  for (let attempt = 1; ; attempt++) {
    const version = await getProductVersion(ctx, id);
    if (!version) throw productNotFound(id);
    const sheet = await readSheet(ctx, id);
    const after = await getProductVersion(ctx, id);
    if (after?.revision === version.revision || attempt === 3) return { sheet, version };
  }
}

/** getProductSheet as the JSON text the database wrote, for adapters that pass it on as is. */
export async function getProductSheetJson(context: RequestContext, id: number): Promise<string> {
  return readSheetJson(useWorkspace(context, RIGHTS.read), id);
}

export interface SheetDetails extends ModelParts {
  shortTexts?: TextEntry[];
  longTexts?: TextEntry[];
  features?: FeatureInputValue[];
}

/** The rows a product's texts, features and keywords make: one per text, feature value and keyword. */
export function detailRows(input: SheetDetails): number {
  let rows = (input.shortTexts?.length ?? 0) + (input.longTexts?.length ?? 0) + partRows(input);
  for (const feature of input.features ?? []) rows += feature.values.length;
  return rows;
}

interface CheckedDetails {
  shortTexts: TextEntry[];
  longTexts: TextEntry[];
  features: FeatureInputValue[];
  parts: CheckedParts;
}

/**
 * Validates texts and features before anything is written (a language named twice is refused);
 * the bulk upsert's plan applies the same rules.
 */
export function checkDetails(input: SheetDetails & { groupId?: unknown }): CheckedDetails {
  checkExclusive(input);
  const features = input.features ?? [];
  const rows = detailRows(input);
  if (rows > SHEET_ROWS_MAX) {
    throw new ValidationError(
      `A product's texts and feature values are at most ${SHEET_ROWS_MAX} in one call, these are ${rows}: ` +
        'split them over several calls',
      'SHEET_TOO_LARGE',
    );
  }
  const seen = new Set<string>();
  features.forEach((f, i) => {
    if (seen.has(f.ftidref)) {
      const error = new ValidationError(`features[${i}] names ftidref '${f.ftidref}' a second time`);
      throw atField(error, `features[${i}].ftidref`);
    }
    seen.add(f.ftidref);
  });
  return {
    shortTexts: input.shortTexts ? normalizeLanguageValues(input.shortTexts, 'shortTexts') : [],
    longTexts: input.longTexts ? normalizeLanguageValues(input.longTexts, 'longTexts') : [],
    features,
    parts: checkParts(input),
  };
}

/** The product's fields of a write: what createProduct and updateProduct take. */
function fieldsOf<T extends ModelParts & SheetDetails & { groupId?: unknown }>(input: T) {
  const {
    shortTexts: _s,
    longTexts: _l,
    features: _f,
    groupId: _g,
    keywords: _k,
    media: _media,
    groupIds: _gs,
    fragments: _fr,
    allFeatures: _af,
    ...fields
  } = input;
  return fields;
}

async function writeTexts(
  ctx: WorkspaceContext,
  id: number,
  kind: TextKind,
  texts: TextEntry[],
): Promise<void> {
  for (const { lang, value } of texts) await setText(ctx, id, kind, lang, value);
}

async function writeDetails(ctx: WorkspaceContext, id: number, details: CheckedDetails): Promise<void> {
  await writeTexts(ctx, id, 'DESCRIPTIONSHORT', details.shortTexts);
  await writeTexts(ctx, id, 'DESCRIPTIONLONG', details.longTexts);
  for (const { ftidref, funit, values } of details.features) {
    await setFeature(ctx, id, ftidref, { funit, values });
  }
  await writeParts(ctx, id, details.parts);
}

/**
 * Creates a product (or a variant with masterProductId) with its texts, features and group
 * in the caller's transaction, and returns its id without reading it back (the bulk upsert
 * writes a thousand of them). `name` and a short text in the same language: the short text
 * wins (it is written after).
 */
export async function writeNewProductSheet(
  ctx: WorkspaceContext,
  input: CreateProductSheetInput,
): Promise<number> {
  const { groupId } = input;
  const details = checkDetails(input);
  if (groupId !== undefined) await reserveGroup(ctx, groupId);
  await reserveGroups(ctx, details.parts);
  const product = await createProduct(ctx, fieldsOf(input));
  await writeDetails(ctx, product.id, details);
  if (groupId !== undefined) await assignProducts(ctx, groupId, [product.id]);
  return product.id;
}

/** Partial update of a product's fields, texts, features and group in the caller's transaction. */
export async function writeProductSheet(
  ctx: WorkspaceContext,
  id: number,
  input: UpdateProductSheetInput,
): Promise<void> {
  const { groupId } = input;
  const details = checkDetails(input);
  if (typeof groupId === 'number') await reserveGroup(ctx, groupId);
  await reserveGroups(ctx, details.parts);
  await updateProduct(ctx, id, fieldsOf(input));
  await writeDetails(ctx, id, details);
  if (groupId === null) await ungroupProduct(ctx, id);
  else if (groupId !== undefined) await assignProducts(ctx, groupId, [id]);
}

/** createProductSheet with the new product's version (the window's editor saves against it). */
export function createVersionedProductSheet(
  context: RequestContext,
  input: CreateProductSheetInput,
): Promise<{ sheet: ProductSheet; version: ProductVersion }> {
  return runInTransaction(context, RIGHTS.edit, async (ctx) => {
    const id = await writeNewProductSheet(ctx, input);
    return { sheet: await readSheet(ctx, id), version: (await getProductVersion(ctx, id))! };
  });
}

/** Creates a product with its texts, features and group in one transaction; returns its sheet. */
export function createProductSheet(
  context: RequestContext,
  input: CreateProductSheetInput,
): Promise<ProductSheet> {
  return runInTransaction(context, RIGHTS.edit, async (ctx) =>
    readSheet(ctx, await writeNewProductSheet(ctx, input)),
  );
}

/** Partial update of a product's fields, texts, features and group in one transaction; returns its sheet. */
export function updateProductSheet(
  context: RequestContext,
  id: number,
  input: UpdateProductSheetInput,
): Promise<ProductSheet> {
  return runInTransaction(context, RIGHTS.edit, async (ctx) => {
    await writeProductSheet(ctx, id, input);
    return readSheet(ctx, id);
  });
}

/** Sets texts of one kind in several languages at once; returns all texts of that kind. */
export function setTexts(
  context: RequestContext,
  id: number,
  kind: TextKind,
  texts: readonly TextEntry[],
): Promise<TextEntry[]> {
  const entries = normalizeLanguageValues(texts, 'texts');
  return runInTransaction(context, RIGHTS.edit, async (ctx) => {
    // Unknown product: 404 even for an empty list.
    await getTexts(ctx, id, kind);
    await writeTexts(ctx, id, kind, entries);
    return getTexts(ctx, id, kind);
  });
}
