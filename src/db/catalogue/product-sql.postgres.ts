import { sql } from 'kysely';
import type { ProductSql } from './catalogue-sql.js';
import { NAME_KEY_LENGTH } from './name-key.js';
import { productDtoEntries } from './product-dto-entries.js';
import { usesTrigrams } from './search-terms.js';
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
    // Two index scans (pg_trgm's GIN indexes answer ILIKE '%…%' and recheck each hit) instead of
    // a probe per product; the same predicate as the check. Trigrams need three characters: a
    // shorter term reads the short texts' name keys by an index-only scan instead of every text
    // row, and the few short texts longer than their key through product_short_text_beyond_key
    // (migration 0018). `supplier_pid <> ''` lets the partial trigram index answer (migration 0020:
    // partial, so that lookups by `=` keep to the unique btree); no search matches an empty one.
    const shortTexts = usesTrigrams(text)
      ? sql`SELECT t.product_id FROM product_text t
        WHERE t.kind = 'DESCRIPTIONSHORT' AND ${this.likeIgnoringCase(sql.ref('t.value'), pattern)}`
      : sql`SELECT t.product_id FROM product_text t
        WHERE t.kind = 'DESCRIPTIONSHORT' AND ${this.likeIgnoringCase(sql.ref('t.name_key'), pattern)}
      UNION
      SELECT t.product_id FROM product_text t
        WHERE t.kind = 'DESCRIPTIONSHORT' AND char_length(t.value) > ${sql.lit(NAME_KEY_LENGTH)}
          AND ${this.likeIgnoringCase(sql.ref('t.value'), pattern)}`;
    return sql<boolean>`p.id IN (
      SELECT s.id FROM product s
        WHERE s.supplier_pid <> '' AND ${this.likeIgnoringCase(sql.ref('s.supplier_pid'), pattern)}
      UNION
      ${shortTexts})`;
  },
};
