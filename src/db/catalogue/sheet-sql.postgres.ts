import { sql, type RawBuilder } from 'kysely';
import { pgJsonArray, pgJsonRow } from '../postgres-json-text.js';
import type { TextKind } from '../workspace.schema.js';
import type { SheetLanguages, SheetSql } from './catalogue-sql.js';
import { PRODUCT_FIELDS, SHEET_FIELDS } from './product-fields.js';
import { productSqlPostgres } from './product-sql.postgres.js';
import { groupNameSql } from './shared-sql.js';
import { postgresIdList } from './id-list.js';

/**
 * The product sheet in one statement, PostgreSQL's twin of sheet-sql.sqlite.ts's
 * sheetSql: the same parts, orders, fallbacks and bytes (tests compare the sheet with REST's
 * single reads, and the bodies with their compact form, on both backends).
 */

/** TextEntryDto[] of table `from` aliased `a` (columns lang and `value`) where `where` holds. */
const langValues = (
  from: string,
  value: string,
  where: RawBuilder<unknown>,
  orderBy: RawBuilder<unknown> = sql`a.lang`,
) =>
  pgJsonArray(sql`SELECT a.lang AS "lang", a.${sql.ref(value)} AS "value"`, {
    from: sql`${sql.table(from)} a`,
    where,
    orderBy,
  });

const featureColumns = sql`fd.ftidref AS "ftidref", COALESCE(pf.funit, fd.default_unit) AS "funit",
  fd.names_json AS "names", pf.values_json AS "values"`;
const featureRows = sql`product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id`;

/** The FeatureDto list of the product aliased `p` as json (PostgreSQL), as featuresJsonSqlite. */
const featuresJsonPostgres = pgJsonArray(
  // names_json and values_json are json columns holding compact text: row_to_json embeds them as they are.
  sql`SELECT ${featureColumns}`,
  {
    from: featureRows,
    where: sql`pf.product_id = p.id AND pf.occurrence = 1`,
    orderBy: sql`pf.position, pf.feature_id`,
  },
);

/** Every feature occurrence with its details, as the SQLite sheet's part. */
const occurrencesJsonPostgres = pgJsonArray(sql`SELECT ${featureColumns}, pf.details_json AS "details"`, {
  from: featureRows,
  where: sql`pf.product_id = p.id`,
  orderBy: sql`pf.position, pf.feature_id, pf.occurrence`,
});

/** The sheet's parts of the product model, as modelPartsSqlite. */
function modelPartsPostgres(groupLang: string, fallbackLang: string) {
  const groups = pgJsonArray(
    sql`SELECT g.id AS "id", g.bmecat_id AS "groupId", ${groupNameSql(groupLang, fallbackLang)} AS "name",
      g.catalog_group_id AS "catalogGroupId"`,
    {
      from: sql`(SELECT 0 AS position, p.group_id AS group_id WHERE p.group_id IS NOT NULL
        UNION ALL SELECT eg.position, eg.group_id FROM product_extra_group eg WHERE eg.product_id = p.id) x
        JOIN product_group g ON g.id = x.group_id`,
      where: sql`true`,
      orderBy: sql`x.position`,
    },
  );
  const fields = SHEET_FIELDS.map((f) => sql`${sql.ref(`p.${f.column}`)} AS ${sql.id(f.key)}`);
  return sql.join([
    sql`${groups} AS "groups"`,
    ...fields,
    sql`${keywords} AS "keywords"`,
    sql`${media} AS "media"`,
    sql`${fragments} AS "fragments"`,
  ]);
}

const keywords = langValues('product_keyword', 'value', sql`a.product_id = p.id`, sql`a.lang, a.position`);
const media = pgJsonArray(
  sql`SELECT m.mime_type AS "type", m.source AS "source", m.descriptions_json AS "descriptions",
    m.purpose AS "purpose", m.mime_order AS "order"`,
  { from: sql`product_media m`, where: sql`m.product_id = p.id`, orderBy: sql`m.position` },
);
const fragments = pgJsonArray(sql`SELECT fr.place AS "place", fr.xml AS "xml"`, {
  from: sql`product_fragment fr`,
  where: sql`fr.product_id = p.id`,
  orderBy: sql`fr.position`,
});

/** The TextEntryDto list of one kind of the product aliased `p` as json (PostgreSQL), as textsJsonSqlite. */
const textsJsonPostgres = (kind: TextKind) =>
  langValues('product_text', 'value', sql`a.product_id = p.id AND a.kind = ${sql.lit(kind)}`);

function sheetSelect(
  { name: lang, group: groupLang, fallback: fallbackLang }: SheetLanguages,
  where: RawBuilder<unknown>,
) {
  const group = pgJsonRow(sql`SELECT g.id AS "id", g.bmecat_id AS "groupId",
      ${groupNameSql(groupLang, fallbackLang)} AS "name"
    FROM product_group g WHERE g.id = p.group_id`);
  const variants = pgJsonArray(
    sql`SELECT v.id AS "id", v.supplier_pid AS "supplierPid", ${productSqlPostgres.name(lang, 'v')} AS "name"`,
    { from: sql`product v`, where: sql`v.master_id = p.id`, orderBy: sql`v.id` },
  );
  return sql<{ sheet: string }>`SELECT row_to_json(s)::text AS sheet FROM product p CROSS JOIN LATERAL (SELECT
    (${productSqlPostgres.json(lang)})::json AS "product",
    ${textsJsonPostgres('DESCRIPTIONSHORT')} AS "shortTexts",
    ${textsJsonPostgres('DESCRIPTIONLONG')} AS "longTexts",
    ${occurrencesJsonPostgres} AS "features",
    ${group} AS "group",
    ${modelPartsPostgres(groupLang, fallbackLang)},
    ${variants} AS "variants") s WHERE ${where}`;
}

const sheetSql = (languages: SheetLanguages, id: number) => sheetSelect(languages, sql`p.id = ${id}`);

/** The variants of product `id` as ProductDto[] JSON text in id order; no row for no such product. */
function variantsSql(lang: string, id: number) {
  return sql<{ json: string }>`SELECT '[' || COALESCE((SELECT string_agg(${productSqlPostgres.json(lang)}, ','
      ORDER BY p.id) FROM product p WHERE p.master_id = m.id), '') || ']' AS json FROM product m WHERE m.id = ${id}`;
}

/** A catalogue export's products, as exportSheetsSql of sheet-sql.sqlite.ts (the same keys and bytes). */
function exportSheetsSql(ids: readonly number[]) {
  const occurrences = pgJsonArray(
    sql`SELECT fd.ftidref AS "ftidref", COALESCE(pf.funit, fd.default_unit) AS "funit",
      CASE WHEN t.kept THEN fd.names_json END AS "names", pf.values_json AS "values", pf.details_json AS "details"`,
    {
      from: sql`(SELECT EXISTS (SELECT 1 FROM product_fragment x WHERE x.product_id = p.id
          AND x.place LIKE 'PRODUCT!_FEATURES/FEATURE#%/FTEMPLATE' ESCAPE '!') AS kept) t
        CROSS JOIN product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id`,
      where: sql`pf.product_id = p.id`,
      orderBy: sql`pf.position, pf.feature_id, pf.occurrence`,
    },
  );
  const otherGroupIds = sql`(SELECT ('[' || COALESCE(string_agg(x.group_id::text, ',' ORDER BY x.position), '') || ']')::json
    FROM product_extra_group x WHERE x.product_id = p.id)`;
  const fields = PRODUCT_FIELDS.map((f) => sql`${sql.ref(`p.${f.column}`)} AS ${sql.id(f.key)}`);
  return sql<{ sheet: string }>`SELECT row_to_json(s)::text AS sheet FROM product p CROSS JOIN LATERAL (SELECT
    p.id AS "id", p.supplier_pid AS "supplierPid", p.master_id AS "masterProductId", ${sql.join(fields)},
    ${textsJsonPostgres('DESCRIPTIONSHORT')} AS "shortTexts",
    ${textsJsonPostgres('DESCRIPTIONLONG')} AS "longTexts",
    ${occurrences} AS "features",
    p.group_id AS "groupId",
    ${otherGroupIds} AS "otherGroupIds",
    ${keywords} AS "keywords",
    ${media} AS "media",
    ${fragments} AS "fragments") s WHERE p.id IN ${postgresIdList(ids)} ORDER BY p.id`;
}

export const sheetSqlPostgres: SheetSql = {
  sheet: sheetSql,
  exportSheets: exportSheetsSql,
  features: featuresJsonPostgres,
  texts: textsJsonPostgres,
  part: (part, id) => sql<{ json: string }>`SELECT (${part})::text AS json FROM product p WHERE p.id = ${id}`,
  variants: variantsSql,
};
