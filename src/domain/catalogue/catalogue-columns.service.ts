import { sql } from 'kysely';
import { catalogueSql } from '../../db/catalogue/catalogue-sql.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { selectFeatureDefinitions, selectTextLanguages } from './catalogue-export.repository.js';

/**
 * What a spreadsheet export (src/interchange/spreadsheet/) reads besides the product sheets: the
 * languages and features in use, from which its default columns follow, and the supplierPids of
 * variants' main products. Read right only.
 */

export interface ColumnsInUse {
  defaultLanguage: string;
  /** The languages of short and long texts, the default first, then by code. */
  textLanguages: string[];
  /** Every defined feature by ftidref (code point order) with the languages of its first occurrences' values. */
  features: { ftidref: string; languages: string[] }[];
}

/** Languages the default first, then by code. */
function ordered(languages: Iterable<string>, first: string): string[] {
  const list = [...new Set(languages)].sort();
  return list.includes(first) ? [first, ...list.filter((l) => l !== first)] : list;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function getColumnsInUse(context: RequestContext): Promise<ColumnsInUse> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const fallback = ctx.workspace.defaultLanguage;
  return ctx.snapshot(async (db) => {
    const definitions = await selectFeatureDefinitions(db);
    const texts = await selectTextLanguages(db);
    const pairs = await catalogueSql(db).featureLanguages(db);
    const languages = new Map<string, string[]>(definitions.map((d) => [d.ftidref, []]));
    for (const { ftidref, lang } of pairs) languages.get(ftidref)?.push(lang);
    return {
      defaultLanguage: fallback,
      textLanguages: ordered(texts, fallback),
      features: [...languages.keys()]
        .sort(byCodePoint)
        .map((ftidref) => ({ ftidref, languages: ordered(languages.get(ftidref)!, fallback) })),
    };
  });
}

/** The supplierPids of these products (those that exist), for naming a variant's main product. */
export async function getSupplierPids(
  context: RequestContext,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const ctx = useWorkspace(context, RIGHTS.read);
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: number; supplier_pid: string }>`SELECT p.id, p.supplier_pid
    FROM product p WHERE p.id IN ${catalogueSql(ctx.db).idList(ids)}`.execute(ctx.db);
  return new Map(rows.map((r) => [Number(r.id), r.supplier_pid]));
}
