import { sql } from 'kysely';
import type { TextKind } from '../../db/workspace.schema.js';
import { productJsonSql, productNameSql, type WorkspaceDb } from './product.repository.js';

/**
 * The product sheet in one statement, PostgreSQL's twin of product-sheet.repository.ts's
 * sheetSql: the same parts, orders and fallbacks (a test compares the sheet with REST's single
 * reads on both backends). json_agg of no rows is NULL, hence the COALESCE to an empty array.
 */
const list = (rows: ReturnType<typeof sql>) => sql`COALESCE((${rows}), '[]'::json)`;

/** The FeatureDto list of the product aliased `p` as json (PostgreSQL), as featuresJsonSqlite. */
export const featuresJsonPostgres = list(sql`SELECT json_agg(json_build_object(
        'ftidref', fd.ftidref,
        'funit', COALESCE(pf.funit, fd.default_unit),
        'names', ${list(sql`SELECT json_agg(json_build_object('lang', n.lang, 'value', n.name) ORDER BY n.lang)
          FROM feature_def_name n WHERE n.feature_id = pf.feature_id`)},
        'values', ${list(sql`SELECT json_agg(json_build_object('lang', fv.lang, 'value', fv.value) ORDER BY fv.lang)
          FROM product_feature_value fv WHERE fv.product_id = p.id AND fv.feature_id = pf.feature_id`)}
      ) ORDER BY pf.position, pf.feature_id)
      FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id WHERE pf.product_id = p.id`);

/** The TextEntryDto list of one kind of the product aliased `p` as json (PostgreSQL), as textsJsonSqlite. */
export const textsJsonPostgres = (kind: TextKind) =>
  list(sql`SELECT json_agg(json_build_object('lang', t.lang, 'value', t.value) ORDER BY t.lang)
    FROM product_text t WHERE t.product_id = p.id AND t.kind = ${sql.lit(kind)}`);

export function sheetSqlPostgres(
  db: WorkspaceDb,
  lang: string,
  groupLang: string,
  fallbackLang: string,
  id: number,
) {
  return sql<{ sheet: string }>`SELECT json_build_object(
    'product', (${productJsonSql(db, lang)})::json,
    'shortTexts', ${textsJsonPostgres('DESCRIPTIONSHORT')},
    'longTexts', ${textsJsonPostgres('DESCRIPTIONLONG')},
    'features', ${featuresJsonPostgres},
    'group', (SELECT json_build_object('id', g.id, 'groupId', g.bmecat_id, 'name', COALESCE((
        SELECT gn.name FROM product_group_name gn WHERE gn.group_id = g.id
        ORDER BY CASE gn.lang WHEN ${groupLang} THEN 0 WHEN ${fallbackLang} THEN 1 ELSE 2 END, gn.lang
        LIMIT 1), ''))
      FROM product_group g WHERE g.id = p.group_id),
    'variants', ${list(sql`SELECT json_agg(json_build_object(
        'id', v.id, 'supplierPid', v.supplier_pid, 'name', ${productNameSql(db, lang, 'v')}) ORDER BY v.id)
      FROM product v WHERE v.master_id = p.id`)}
  )::text AS sheet FROM product p WHERE p.id = ${id}`;
}
