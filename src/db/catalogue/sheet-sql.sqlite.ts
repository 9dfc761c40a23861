import { sql, type RawBuilder } from 'kysely';
import { jsonArray, jsonObject, jsonValue } from '../sqlite-json-text.js';
import type { TextKind } from '../workspace.schema.js';
import type { SheetLanguages, SheetSql } from './catalogue-sql.js';
import { PRODUCT_FIELDS, SHEET_FIELDS } from './product-fields.js';
import { productSqlSqlite } from './product-sql.sqlite.js';
import { groupNameSql } from './shared-sql.js';
import { sqliteIdList } from './id-list.js';

/** TextEntryDto[] of rows (lang, value). */
const langValues = (rows: RawBuilder<unknown>) =>
  jsonArray('lv', sql`json_object('lang', lv.lang, 'value', lv.value)`, rows);

/**
 * The TextEntryDto list of one kind of the product aliased `p` as JSON text (SQLite), ordered by
 * language: the sheet's part and GET /api/product/{id}/texts/{kind} (texts/text-json.repository.ts).
 */
const textsJsonSqlite = (kind: TextKind) =>
  langValues(sql`SELECT t.lang, t.value FROM product_text t
    WHERE t.product_id = p.id AND t.kind = ${sql.lit(kind)} ORDER BY t.lang`);

const featureSelect = sql`SELECT fd.ftidref, COALESCE(pf.funit, fd.default_unit) AS funit, fd.names_json,
    pf.values_json, pf.details_json
  FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id WHERE pf.product_id = p.id`;

const featureEntries = [
  ['ftidref', jsonValue(sql`f.ftidref`)],
  ['funit', jsonValue(sql`f.funit`)],
  // Stored as the JSON text of TextEntryDto[] (entry-list.rules.ts).
  ['names', sql`f.names_json`],
  ['values', sql`f.values_json`],
] as const;

/**
 * The FeatureDto list of the product aliased `p` as JSON text (SQLite), in REST's order: the first
 * occurrence of each ftidref (GET /api/product/{id}/features, features/feature-json.repository.ts).
 */
const featuresJsonSqlite = jsonArray(
  'f',
  jsonObject(featureEntries),
  sql`${featureSelect} AND pf.occurrence = 1 ORDER BY pf.position, pf.feature_id`,
);

/** Every feature occurrence of the product aliased `p` with its details, in order: the sheet's part. */
const occurrencesJsonSqlite = jsonArray(
  'f',
  jsonObject([...featureEntries, ['details', sql`COALESCE(f.details_json, 'null')`]]),
  sql`${featureSelect} ORDER BY pf.position, pf.feature_id, pf.occurrence`,
);

/**
 * Every group of the product aliased `p` as JSON text: the first (product.group_id), then the others
 * in their order. Built as two parts rather than one ordered UNION ALL: ORDER BY over a compound
 * select sorts in an ephemeral table per call (see db/sqlite-json-text.ts), which made it the
 * dearest part of the sheet (about 7 µs of 50); the others' order is their key's.
 */
function groupsJsonSqlite(groupLang: string, fallbackLang: string) {
  const group = (alias: string) =>
    sql`json_object('id', g.id, 'groupId', g.bmecat_id, 'name', ${groupNameSql(groupLang, fallbackLang)},
      'catalogGroupId', g.catalog_group_id) AS ${sql.id(alias)}`;
  const others = sql`(SELECT group_concat(o.item, ',') FROM (SELECT ${group('item')}
      FROM product_extra_group eg JOIN product_group g ON g.id = eg.group_id
      WHERE eg.product_id = p.id ORDER BY eg.position) o)`;
  const first = sql`(SELECT ${group('item')} FROM product_group g WHERE g.id = p.group_id)`;
  return sql`('[' || COALESCE(${first} || COALESCE(',' || ${others}, ''), ${others}, '') || ']')`;
}

/** The sheet's parts of the product model (docs/products.md, "The product sheet"), after `group`. */
function modelPartsSqlite(groupLang: string, fallbackLang: string) {
  return [
    ['groups', groupsJsonSqlite(groupLang, fallbackLang)],
    ...SHEET_FIELDS.map((f) => [f.key, jsonValue(sql.ref(`p.${f.column}`))] as const),
    ['keywords', keywordsJsonSqlite],
    ['media', mediaJsonSqlite],
    ['fragments', fragmentsJsonSqlite],
  ] as const;
}

const keywordsJsonSqlite =
  langValues(sql`SELECT k.lang, k.value FROM product_keyword k WHERE k.product_id = p.id
  ORDER BY k.lang, k.position`);

const mediaJsonSqlite = jsonArray(
  'm',
  jsonObject([
    ['type', jsonValue(sql`m.mime_type`)],
    ['source', jsonValue(sql`m.source`)],
    ['descriptions', sql`m.descriptions_json`],
    ['purpose', jsonValue(sql`m.purpose`)],
    ['order', jsonValue(sql`m.mime_order`)],
  ]),
  sql`SELECT * FROM product_media pm WHERE pm.product_id = p.id ORDER BY pm.position`,
);

const fragmentsJsonSqlite = jsonArray(
  'fr',
  sql`json_object('place', fr.place, 'xml', fr.xml)`,
  sql`SELECT pf.place, pf.xml FROM product_fragment pf WHERE pf.product_id = p.id ORDER BY pf.position`,
);

/**
 * The product sheet as one JSON text written by SQLite in one statement (SQLite dialect; the
 * PostgreSQL twin is product-sheet.postgres.ts):
 * the product, texts, features with names and values, group and variants, with the rules and
 * orders of the single services (a test compares the sheet with REST's single reads). One
 * statement instead of a dozen: the sheet is what an agent reads most.
 */
function sheetJson({ name: lang, group: groupLang, fallback: fallbackLang }: SheetLanguages) {
  return jsonObject([
    ['product', productSqlSqlite.json(lang)],
    ['shortTexts', textsJsonSqlite('DESCRIPTIONSHORT')],
    ['longTexts', textsJsonSqlite('DESCRIPTIONLONG')],
    ['features', occurrencesJsonSqlite],
    [
      'group',
      sql`COALESCE((SELECT json_object('id', g.id, 'groupId', g.bmecat_id, 'name', ${groupNameSql(groupLang, fallbackLang)})
        FROM product_group g WHERE g.id = p.group_id), 'null')`,
    ],
    ...modelPartsSqlite(groupLang, fallbackLang),
    [
      'variants',
      jsonArray(
        'va',
        sql`json_object('id', va.id, 'supplierPid', va.supplier_pid, 'name', va.name)`,
        sql`SELECT v.id, v.supplier_pid, ${productSqlSqlite.name(lang, 'v')} AS name
          FROM product v WHERE v.master_id = p.id ORDER BY v.id`,
      ),
    ],
  ]);
}

function sheetSql(languages: SheetLanguages, id: number) {
  return sql<{ sheet: string }>`SELECT ${sheetJson(languages)} AS sheet FROM product p WHERE p.id = ${id}`;
}

/** The variants of product `id` as ProductDto[] JSON text in id order; no row for no such product. */
function variantsSql(lang: string, id: number) {
  return sql<{ json: string }>`SELECT ${jsonArray(
    'v',
    sql`v.dto`,
    sql`SELECT ${productSqlSqlite.json(lang)} AS dto FROM product p WHERE p.master_id = m.id ORDER BY p.id`,
  )} AS json FROM product m WHERE m.id = ${id}`;
}

/**
 * What a catalogue export writes of each product (ExportSheet, catalogue-export.service.ts) as one
 * JSON text per product, in id order: the sheet's parts without what the export does not write
 * (names in the reader's language, the group's name, the variants, the revision), so that the
 * database builds and the service parses about half as much. A feature's names are there only
 * when the product kept an FTEMPLATE (the only place they are written); null otherwise.
 */
function exportSheetsSql(ids: readonly number[]) {
  const occurrences = jsonArray(
    'f',
    jsonObject([
      ['ftidref', jsonValue(sql`f.ftidref`)],
      ['funit', jsonValue(sql`f.funit`)],
      ['names', sql`COALESCE(f.names_json, 'null')`],
      ['values', sql`f.values_json`],
      ['details', sql`COALESCE(f.details_json, 'null')`],
    ]),
    sql`SELECT fd.ftidref, COALESCE(pf.funit, fd.default_unit) AS funit,
        CASE WHEN t.kept THEN fd.names_json END AS names_json, pf.values_json, pf.details_json
      FROM (SELECT EXISTS (SELECT 1 FROM product_fragment x WHERE x.product_id = p.id
          AND x.place LIKE 'PRODUCT!_FEATURES/FEATURE#%/FTEMPLATE' ESCAPE '!') AS kept) t
        CROSS JOIN product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id
      WHERE pf.product_id = p.id ORDER BY pf.position, pf.feature_id, pf.occurrence`,
  );
  const sheet = jsonObject([
    ['id', sql`p.id`],
    ['supplierPid', jsonValue(sql`p.supplier_pid`)],
    ['masterProductId', jsonValue(sql`p.master_id`)],
    ...PRODUCT_FIELDS.map((f) => [f.key, jsonValue(sql.ref(`p.${f.column}`))] as const),
    ['shortTexts', textsJsonSqlite('DESCRIPTIONSHORT')],
    ['longTexts', textsJsonSqlite('DESCRIPTIONLONG')],
    ['features', occurrences],
    ['groupId', jsonValue(sql`p.group_id`)],
    [
      'otherGroupIds',
      jsonArray(
        'eg',
        sql`eg.group_id`,
        sql`SELECT x.group_id FROM product_extra_group x WHERE x.product_id = p.id ORDER BY x.position`,
      ),
    ],
    ['keywords', keywordsJsonSqlite],
    ['media', mediaJsonSqlite],
    ['fragments', fragmentsJsonSqlite],
  ]);
  return sql<{ sheet: string }>`SELECT ${sheet} AS sheet FROM product p
    WHERE p.id IN ${sqliteIdList(ids)} ORDER BY p.id`;
}

export const sheetSqlSqlite: SheetSql = {
  sheet: sheetSql,
  exportSheets: exportSheetsSql,
  features: featuresJsonSqlite,
  texts: textsJsonSqlite,
  part: (part, id) => sql<{ json: string }>`SELECT ${part} AS json FROM product p WHERE p.id = ${id}`,
  variants: variantsSql,
};
