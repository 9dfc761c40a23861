/**
 * Whether a search term is long enough for the trigram indexes (SQLite's FTS5 `trigram`
 * tokenizer, PostgreSQL's pg_trgm): both find substrings of three characters or more; a shorter
 * term is searched without them (docs/catalogue-grid.md).
 */
export function usesTrigrams(text: string): boolean {
  return [...text].length >= 3;
}

/**
 * Between the parts of a product's search text on PostgreSQL (product_search_string, migration 0022):
 * a term that contains it is searched the other way, so that no match reaches across two parts.
 */
export const SEARCH_TEXT_SEPARATOR = '\u0001';
