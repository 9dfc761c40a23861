import { catalogueSql } from '../../db/catalogue/catalogue-sql.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { selectFeatureDefinitions, selectTextLanguages } from './catalogue-export.repository.js';

/**
 * What a spreadsheet export (src/interchange/spreadsheet/) reads besides the products: the
 * languages and features in use, from which its default columns follow. Read right only.
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

/**
 * The feature languages are a probe per (feature, language) pair the writes have used (0021, some
 * milliseconds for the benchmark's 900 pairs): kept per workspace with the committed change counter
 * they were read at, so that a second export of an unchanged catalogue does not read them again.
 */
const remembered = new WeakMap<object, { counter: number; columns: ColumnsInUse }>();

/**
 * `featureLanguages: false` leaves each feature's languages empty (a caller that names its
 * columns needs the definitions only) and skips the scan.
 */
export async function getColumnsInUse(
  context: RequestContext,
  { featureLanguages = true }: { featureLanguages?: boolean } = {},
): Promise<ColumnsInUse> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const fallback = ctx.workspace.defaultLanguage;
  // Inside a transaction its own writes may differ from what the counter says: no memo there.
  const memo = featureLanguages && ctx.trx === undefined;
  const counter = memo ? await ctx.reads.changeCounter() : undefined;
  const known = memo ? remembered.get(ctx.workspace) : undefined;
  if (known && known.counter === counter && known.columns.defaultLanguage === fallback) return known.columns;
  const columns = await ctx.snapshot(async (db) => {
    const definitions = await selectFeatureDefinitions(db);
    const texts = await selectTextLanguages(db);
    const pairs = featureLanguages ? await catalogueSql(db).featureLanguages(db) : [];
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
  // Read after the counter: a change committed in between makes the memo older than its counter says,
  // so it is kept only when the counter is still the same afterwards.
  if (memo && (await ctx.reads.changeCounter()) === counter)
    remembered.set(ctx.workspace, { counter: counter!, columns });
  return columns;
}
