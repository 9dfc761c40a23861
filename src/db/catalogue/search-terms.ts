/**
 * Whether a search term is long enough for the trigram indexes (SQLite's FTS5 `trigram`
 * tokenizer, PostgreSQL's pg_trgm): both find substrings of three characters or more; a shorter
 * term is searched without them (docs/catalogue-grid.md).
 */
export function usesTrigrams(text: string): boolean {
  return [...text].length >= 3;
}
