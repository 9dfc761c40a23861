import { sql } from 'kysely';
import type { ProductSql } from './catalogue-sql.js';
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
    return sql<string>`(SELECT row_to_json(r)::text FROM (SELECT
        p.id AS "id", p.supplier_pid AS "supplierPid", p.supplier_id_ref AS "supplierIdRef",
        ${this.name(lang, 'p')} AS "name", p.ean AS "ean", p.manufacturer_pid AS "manufacturerPid",
        p.master_id IS NULL AS "masterProduct", ${variantCountSql} AS "variantCount",
        p.master_id AS "masterProductId", p.created_at AS "createdAt", p.updated_at AS "updatedAt") r)`;
  },
  joinedJson() {
    return sql<Buffer | null>`convert_to(string_agg(c.dto, ',' ORDER BY c.id), 'UTF8')`;
  },
  likeIgnoringCase(column, pattern) {
    return sql<boolean>`(${column}) COLLATE "C" ILIKE ${pattern} ESCAPE '\\'`;
  },
};
