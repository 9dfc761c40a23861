import type { TextKind } from '../../db/workspace.schema.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { compiledOnce } from '../../db/compiled-once.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';

export interface TextEntry {
  lang: string;
  value: string;
}

export async function listTexts(db: WorkspaceDb, productId: number, kind: TextKind): Promise<TextEntry[]> {
  return db
    .selectFrom('product_text')
    .select(['lang', 'value'])
    .where('product_id', '=', productId)
    .where('kind', '=', kind)
    .orderBy('lang')
    .execute();
}

export async function findText(
  db: WorkspaceDb,
  productId: number,
  kind: TextKind,
  lang: string,
): Promise<TextEntry | undefined> {
  return db
    .selectFrom('product_text')
    .select(['lang', 'value'])
    .where('product_id', '=', productId)
    .where('kind', '=', kind)
    .where('lang', '=', lang)
    .executeTakeFirst();
}

const upsertStatement = compiledOnce<WorkspaceDatabase, never>(
  (db, [productId, kind, lang, value]) =>
    db
      .insertInto('product_text')
      .values({ product_id: productId, kind, lang, value } as never)
      .onConflict((oc) => oc.columns(['product_id', 'kind', 'lang']).doUpdateSet({ value } as never))
      .compile(),
  ['\u0000product', '\u0000kind', '\u0000lang', '\u0000value'],
);

export async function upsertText(
  db: WorkspaceDb,
  productId: number,
  kind: TextKind,
  lang: string,
  value: string,
): Promise<void> {
  await upsertStatement(db, [productId, kind, lang, value]);
}

/** Returns whether a text was there to delete. */
export async function deleteText(
  db: WorkspaceDb,
  productId: number,
  kind: TextKind,
  lang: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('product_text')
    .where('product_id', '=', productId)
    .where('kind', '=', kind)
    .where('lang', '=', lang)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
