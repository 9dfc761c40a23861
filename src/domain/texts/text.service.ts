import type { TextKind } from '../../db/workspace.schema.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { NotFoundError } from '../errors.js';
import { normalizeLanguage } from '../languages/language.js';
import { touchProducts } from '../products/product.repository.js';
import { lockProduct, productNotFound, requireProduct } from '../products/product.guards.js';
import {
  deleteText as deleteTextRow,
  findText,
  listTexts,
  upsertText,
  type TextEntry,
} from './text.repository.js';
import { checkTextValue } from './text.rules.js';

export type { TextEntry } from './text.repository.js';

const KIND_NAME: Record<TextKind, string> = { DESCRIPTIONSHORT: 'short', DESCRIPTIONLONG: 'long' };

function textNotFound(productId: number, kind: TextKind, lang: string): NotFoundError {
  return new NotFoundError(
    `Product ${productId} has no ${KIND_NAME[kind]} text in language ${lang}`,
    'TEXT_NOT_FOUND',
  );
}

/** All texts of one kind, one entry per language, ordered by language code. */
export async function getTexts(
  context: RequestContext,
  productId: number,
  kind: TextKind,
): Promise<TextEntry[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const db = ctx.db;
  await requireProduct(db, productId);
  return listTexts(db, productId, kind);
}

/**
 * getTexts as the JSON text the database writes (GET /api/product/{id}/texts/{kind} sends it as
 * it is): one statement, which also tells an unknown product (404).
 */
export async function listTextsJson(
  context: RequestContext,
  productId: number,
  kind: TextKind,
): Promise<string> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const json = await ctx.reads.textsJson(productId, kind);
  if (json === undefined) throw productNotFound(productId);
  return json;
}

export async function getText(
  context: RequestContext,
  productId: number,
  kind: TextKind,
  language: string,
): Promise<TextEntry> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const lang = normalizeLanguage(language, 'lang');
  const db = ctx.db;
  await requireProduct(db, productId);
  const text = await findText(db, productId, kind, lang);
  if (!text) throw textNotFound(productId, kind, lang);
  return text;
}

/** Creates or replaces a text; the value is stored exactly as given. */
export async function setText(
  context: RequestContext,
  productId: number,
  kind: TextKind,
  language: string,
  value: string,
): Promise<TextEntry> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const lang = normalizeLanguage(language, 'lang');
  checkTextValue(value);
  await ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    // Locked, not just read: a delete committing between the read and the insert made the insert
    // fail on the foreign key (500); now the delete waits, or came first and this answers 404.
    await lockProduct(trx, productId);
    await upsertText(trx, productId, kind, lang, value);
    await touchProducts(trx, [productId], at);
  });
  return { lang, value };
}

export async function deleteText(
  context: RequestContext,
  productId: number,
  kind: TextKind,
  language: string,
): Promise<void> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const lang = normalizeLanguage(language, 'lang');
  await ctx.transaction(async (trx) => {
    const at = ctx.clock.now().toISOString();
    await lockProduct(trx, productId);
    if (!(await deleteTextRow(trx, productId, kind, lang))) throw textNotFound(productId, kind, lang);
    await touchProducts(trx, [productId], at);
  });
}
