import { sql, type Insertable } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';

/**
 * The product model's parts (keywords, media, other groups, kept fragments, every feature
 * occurrence), each replaced as a whole: the part's rows of the product are deleted and the
 * new ones inserted. Written in slices, so that no statement passes SQLite's limit of bound
 * parameters (32,766) whatever a product carries.
 */

const SLICE = 500;

/** Inserts `rows` into `table` in slices (SQLite's limit of bound parameters). */
export async function insertInSlices<T extends keyof WorkspaceDatabase & string>(
  db: WorkspaceDb,
  table: T,
  rows: readonly Insertable<WorkspaceDatabase[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += SLICE) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + SLICE) as never)
      .execute();
  }
}

async function replaceRows<T extends keyof WorkspaceDatabase & string>(
  db: WorkspaceDb,
  table: T,
  productId: number,
  rows: readonly Insertable<WorkspaceDatabase[T]>[],
): Promise<void> {
  // The table names are the model's own; every one of them has a product_id column.
  await db
    .deleteFrom(table as 'product_keyword')
    .where('product_id', '=', productId)
    .execute();
  await insertInSlices(db, table, rows);
}

export interface OccurrenceRow {
  featureId: number;
  funit: string | null;
  valuesJson: string;
  detailsJson: string | null;
}

/** Replaces every feature of the product by these occurrences, in this order. */
export function replaceFeatureOccurrences(
  db: WorkspaceDb,
  productId: number,
  occurrences: readonly OccurrenceRow[],
): Promise<void> {
  const counts = new Map<number, number>();
  return replaceRows(
    db,
    'product_feature',
    productId,
    occurrences.map((o, i) => {
      const occurrence = (counts.get(o.featureId) ?? 0) + 1;
      counts.set(o.featureId, occurrence);
      return {
        product_id: productId,
        feature_id: o.featureId,
        occurrence,
        funit: o.funit,
        position: i + 1,
        values_json: o.valuesJson,
        details_json: o.detailsJson,
      };
    }),
  );
}

/** Replaces the keywords; `keywords` are ordered by language, each language's in its order. */
export function replaceKeywords(
  db: WorkspaceDb,
  productId: number,
  keywords: readonly { lang: string; value: string }[],
): Promise<void> {
  return replaceRows(
    db,
    'product_keyword',
    productId,
    keywords.map(({ lang, value }, i) => ({ product_id: productId, lang, position: i + 1, value })),
  );
}

export interface MediaRow {
  type: string | null;
  source: string;
  descriptionsJson: string;
  purpose: string | null;
  order: number | null;
}

export function replaceMedia(db: WorkspaceDb, productId: number, media: readonly MediaRow[]): Promise<void> {
  return replaceRows(
    db,
    'product_media',
    productId,
    media.map((m, i) => ({
      product_id: productId,
      position: i + 1,
      mime_type: m.type,
      source: m.source,
      descriptions_json: m.descriptionsJson,
      purpose: m.purpose,
      mime_order: m.order,
    })),
  );
}

/** Replaces the product's groups after its first (product.group_id). */
export function replaceExtraGroups(
  db: WorkspaceDb,
  productId: number,
  groupIds: readonly number[],
): Promise<void> {
  return replaceRows(
    db,
    'product_extra_group',
    productId,
    groupIds.map((groupId, i) => ({ product_id: productId, position: i + 1, group_id: groupId })),
  );
}

export function replaceFragments(
  db: WorkspaceDb,
  productId: number,
  fragments: readonly { place: string; xml: string }[],
): Promise<void> {
  return replaceRows(
    db,
    'product_fragment',
    productId,
    fragments.map(({ place, xml }, i) => ({ product_id: productId, position: i + 1, place, xml })),
  );
}

/**
 * After the first group (product.group_id) of these products changed: a group that became a
 * product's first is no longer listed among its others. Every write of group_id calls it.
 */
export async function dropFirstFromOthers(db: WorkspaceDb, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await sql`DELETE FROM product_extra_group
    WHERE product_id IN ${catalogueSql(db).idList(productIds)}
      AND group_id = (SELECT p.group_id FROM product p WHERE p.id = product_extra_group.product_id)`.execute(
    db,
  );
}
