import { sql } from 'kysely';
import type { ProductSql } from './catalogue-sql.js';
import { productDtoEntries } from './product-dto-entries.js';
import { SEARCH_TEXT_SEPARATOR, usesTrigrams } from './search-terms.js';
import { variantCountSql } from './shared-sql.js';

/**
 * PostgreSQL's product SQL. row_to_json over named columns writes compact JSON in column order
 * (json_build_object would put spaces around every colon). ILIKE under the C collation folds
 * ASCII letters only, as SQLite's LIKE does.
 */
export const productSqlPostgres: ProductSql = {
  name(lang, alias) {
    const p = sql.ref(`${alias}.id`);
    return sql<string>`COALESCE(
    (SELECT t.value FROM product_text t
      WHERE t.product_id = ${p} AND t.kind = 'DESCRIPTIONSHORT' AND t.lang = ${lang}),
    (SELECT t.value FROM product_text t
      WHERE t.product_id = ${p} AND t.kind = 'DESCRIPTIONSHORT' ORDER BY t.lang LIMIT 1),
    '')`;
  },
  json(lang) {
    const entries = productDtoEntries(this.name(lang, 'p'), [
      ['masterProduct', sql`p.master_id IS NULL`],
      ['variantCount', variantCountSql],
    ]);
    return sql<string>`(SELECT row_to_json(r)::text FROM (SELECT
        ${sql.join(entries.map(([key, value]) => sql`${value} AS ${sql.id(key)}`))}) r)`;
  },
  joinedJson() {
    return sql<Buffer | null>`convert_to(string_agg(c.dto, ',' ORDER BY c.id), 'UTF8')`;
  },
  likeIgnoringCase(column, pattern) {
    return sql<boolean>`(${column}) COLLATE "C" ILIKE ${pattern} ESCAPE '\\'`;
  },
  matchesSearch(text, pattern) {
    // Trigrams need three characters: pg_trgm's GIN indexes answer ILIKE '%…%' (and recheck each
    // hit) for the supplierPids and the short texts, two index scans instead of a probe per
    // product. A shorter term scans product_search_string (migration 0022): each product's supplierPid
    // and short texts in one string, folded as ILIKE folds, so LIKE on it is the same predicate.
    // `supplier_pid <> ''` lets the partial trigram index answer (migration 0020: partial, so that
    // lookups by `=` keep to the unique btree); no search matches an empty one.
    if (!usesTrigrams(text) && !text.includes(SEARCH_TEXT_SEPARATOR))
      return sql<boolean>`p.id IN (SELECT s.product_id FROM product_search_string s
        WHERE s.text LIKE lower(${pattern} COLLATE "C") ESCAPE '\\')`;
    return sql<boolean>`p.id IN (
      SELECT s.id FROM product s
        WHERE s.supplier_pid <> '' AND ${this.likeIgnoringCase(sql.ref('s.supplier_pid'), pattern)}
      UNION
      SELECT t.product_id FROM product_text t
        WHERE t.kind = 'DESCRIPTIONSHORT' AND ${this.likeIgnoringCase(sql.ref('t.value'), pattern)})`;
  },
};
