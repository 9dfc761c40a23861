import { sql } from 'kysely';
import type { ProductSql } from './catalogue-sql.js';
import { productDtoEntries } from './product-dto-entries.js';
import { usesTrigrams } from './search-terms.js';
import { variantCountSql } from './shared-sql.js';

/**
 * SQLite's product SQL. INDEXED BY in the name: the planner prefers the table's unique index,
 * which then reads the scattered table rows; the partial covering index answers from the index
 * alone. LIKE ignores the case of ASCII letters by default.
 */
export const productSqlSqlite: ProductSql = {
  name(lang, alias) {
    const p = sql.ref(`${alias}.id`);
    return sql<string>`COALESCE(
    (SELECT t.value FROM product_text t INDEXED BY product_short_text
      WHERE t.product_id = ${p} AND t.kind = 'DESCRIPTIONSHORT' AND t.lang = ${lang}),
    (SELECT t.value FROM product_text t INDEXED BY product_short_text
      WHERE t.product_id = ${p} AND t.kind = 'DESCRIPTIONSHORT' ORDER BY t.lang LIMIT 1),
    '')`;
  },
  json(lang) {
    const entries = productDtoEntries(this.name(lang, 'p'), [
      ['masterProduct', sql`json(CASE WHEN p.master_id IS NULL THEN 'true' ELSE 'false' END)`],
      ['variantCount', variantCountSql],
    ]);
    return sql<string>`json_object(${sql.join(entries.map(([key, value]) => sql`${sql.lit(key)}, ${value}`))})`;
  },
  joinedJson() {
    // As a BLOB the text is never decoded into a JavaScript string and encoded again. In the order
    // of the selection, which is ordered by id: an aggregate's own ORDER BY costs an ephemeral
    // table per call and with it heap churn (see db/sqlite-json-text.ts).
    return sql<Buffer | null>`CAST(group_concat(c.dto, ',') AS BLOB)`;
  },
  likeIgnoringCase(column, pattern) {
    return sql<boolean>`${column} LIKE ${pattern} ESCAPE '\\'`;
  },
  matchesSearch(text, pattern) {
    const like = sql<boolean>`(${this.likeIgnoringCase(sql.ref('p.supplier_pid'), pattern)} OR EXISTS (
        SELECT 1 FROM product_text t
        WHERE t.product_id = p.id AND t.kind = 'DESCRIPTIONSHORT' AND ${this.likeIgnoringCase(sql.ref('t.value'), pattern)}))`;
    if (!usesTrigrams(text)) return like;
    return sql<boolean>`(p.id IN (SELECT product_id FROM product_search WHERE product_search MATCH ${ftsPhrase(text)})
      AND ${like})`;
  },
};

/**
 * `text` as one FTS5 phrase: its characters as they are (a trigram phrase is a substring, case
 * folded), quotes doubled. FTS5 folds more than ASCII, so its hits are a superset of LIKE's.
 */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
