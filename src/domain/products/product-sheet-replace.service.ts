import { requireRight, RIGHTS, runInTransaction, type RequestContext } from '../context.js';
import { DomainError, ValidationError } from '../errors.js';
import { DTO_FIELDS, SHEET_FIELDS } from '../../db/catalogue/product-fields.js';
import type { TextKind } from '../../db/workspace.schema.js';
import { deleteText, getTexts } from '../texts/text.service.js';
import { normalizeLanguageValues } from '../texts/text.rules.js';
import { lockProduct } from './product.guards.js';
import { checkOccurrences } from './product-parts.rules.js';
import { checkRevision, getProductVersion } from './product.service.js';
import type { ExpectedRevision, ProductVersion } from './product.types.js';
import type { ProductSheet } from './product-sheet.schemas.js';
import { getProductSheet, writeProductSheet } from './product-sheet.service.js';
import type { ProductSheetWrite } from './product-sheet-write.schemas.js';

/**
 * PUT /api/product/{id}/sheet: a whole sheet replaces the stored one in one transaction, under
 * the revision the client read (If-Match), so that an editor's save never overwrites a change
 * it did not see. Composed of the sheet write (product-sheet.service.ts) with every part sent.
 */

/** Refuses a `group` that is not the first of `groups`: the two name the same group. */
function checkGroup(sheet: ProductSheetWrite): number[] {
  const ids = sheet.groups.map((g) => g.id);
  if (sheet.group !== undefined && (sheet.group?.id ?? undefined) !== ids[0]) {
    throw new ValidationError('group must be the first of groups (or null when groups is empty)');
  }
  return ids;
}

/** Deletes the texts of the languages a replacing sheet no longer lists. */
async function dropTexts(ctx: RequestContext, id: number, kind: TextKind, kept: readonly { lang: string }[]) {
  const keep = new Set(kept.map((t) => t.lang));
  for (const { lang } of await getTexts(ctx, id, kind)) {
    if (!keep.has(lang)) await deleteText(ctx, id, kind, lang);
  }
}

/** The product's own fields, which the sheet carries under `product`. */
const PRODUCT_KEYS = new Set(['supplierPid', ...DTO_FIELDS.map((f) => f.key)]);

/**
 * The sheet's paths for a refusal of the write it is made of: the product's fields are under
 * `product` (`product.supplierPid`), as the body has them.
 */
function inSheet(error: unknown): unknown {
  if (error instanceof DomainError && error.field !== undefined && PRODUCT_KEYS.has(error.field)) {
    error.field = `product.${error.field}`;
  }
  return error;
}

export async function replaceProductSheet(
  context: RequestContext,
  id: number,
  sheet: ProductSheetWrite,
  expected?: ExpectedRevision,
): Promise<{ sheet: ProductSheet; version: ProductVersion }> {
  // The right before anything of the body: a VIEWER learns nothing from a sheet's checks.
  requireRight(context, RIGHTS.edit);
  const groupIds = checkGroup(sheet);
  // The write checks them as `allFeatures`; checked here first, a refusal names the sheet's `features`.
  checkOccurrences(sheet.features, 'features');
  return runInTransaction(context, RIGHTS.edit, async (ctx) => {
    await lockProduct(ctx.db, id);
    await checkRevision(ctx.db, id, expected);
    const { product } = sheet;
    await writeProductSheet(ctx, id, {
      supplierPid: product.supplierPid,
      // Every text field: those not sent are cleared.
      ...Object.fromEntries(DTO_FIELDS.map((f) => [f.key, product[f.key] ?? null])),
      ...Object.fromEntries(SHEET_FIELDS.map((f) => [f.key, sheet[f.key] ?? null])),
      shortTexts: sheet.shortTexts,
      longTexts: sheet.longTexts,
      allFeatures: sheet.features,
      groupIds,
      keywords: sheet.keywords,
      media: sheet.media,
      fragments: sheet.fragments,
    }).catch((error: unknown) => {
      throw inSheet(error);
    });
    // After the write, whose checks have passed by then: the languages in their stored form (ger: deu).
    await dropTexts(ctx, id, 'DESCRIPTIONSHORT', normalizeLanguageValues(sheet.shortTexts, 'shortTexts'));
    await dropTexts(ctx, id, 'DESCRIPTIONLONG', normalizeLanguageValues(sheet.longTexts, 'longTexts'));
    const version = (await getProductVersion(ctx, id))!;
    return { sheet: await getProductSheet(ctx, id), version };
  });
}
