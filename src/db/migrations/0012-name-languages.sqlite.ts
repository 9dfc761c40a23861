import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = sql.raw(String(NAME_KEY_LENGTH));
const SHORT = sql.lit('DESCRIPTIONSHORT');

/** The key of product `id`'s first short text by language code, '' without any (as 0011). */
function firstKey(id: string) {
  const product = sql.raw(id);
  return sql`COALESCE((SELECT substr(t.value, 1, ${KEY}) FROM product_text t
    WHERE t.product_id = ${product} AND t.kind = ${SHORT} ORDER BY t.lang LIMIT 1), '')`;
}

/**
 * The languages product `id` has a short text in, by code, each between commas (',deu,eng,'; ''
 * without any), so that a language is found as ',code,' (ProductGridSql.lacksLanguage).
 */
function languagesOf(id: string) {
  const product = sql.raw(id);
  return sql`COALESCE((SELECT ',' || group_concat(t.lang, ',' ORDER BY t.lang) || ',' FROM product_text t
    WHERE t.product_id = ${product} AND t.kind = ${SHORT}), '')`;
}

/**
 * Sets product `row.product_id`'s fallback key again when the short text `row` was (or is) its
 * first (as 0011), and with `languages` its languages too (a text added, removed or moved to
 * another language or product; a new value changes none). One UPDATE for both.
 */
function refresh(row: 'NEW' | 'OLD', languages: boolean) {
  const r = sql.raw(row);
  const first = sql`NOT EXISTS (SELECT 1 FROM product_text t WHERE t.product_id = ${r}.product_id
        AND t.kind = ${SHORT} AND t.lang < ${r}.lang)`;
  if (!languages) {
    return sql`UPDATE product_fallback_key SET name_key = ${firstKey(`${row}.product_id`)}
      WHERE product_id = ${r}.product_id AND ${r}.kind = ${SHORT} AND ${first}`;
  }
  return sql`UPDATE product_fallback_key
    SET name_key = CASE WHEN ${first} THEN ${firstKey(`${row}.product_id`)} ELSE name_key END,
      langs = ${languagesOf(`${row}.product_id`)}
    WHERE product_id = ${r}.product_id AND ${r}.kind = ${SHORT}`;
}

/**
 * The languages each product has a name in, beside its fallback key (docs/catalogue-grid.md): the
 * sort by name's second arm (products lacking the grid's language) then tests an entry of the
 * index it walks instead of probing product_text per entry, and "does any product lack the
 * language" is answered from the few distinct sets of languages (an index of them) instead of
 * two counts over the catalogue. Kept by the same triggers as the key, on every write path.
 */
export const nameLanguagesSqlite: Migration = {
  async up(db) {
    const statements = [
      sql`ALTER TABLE product_fallback_key ADD COLUMN langs TEXT NOT NULL DEFAULT ''`,
      sql`UPDATE product_fallback_key SET langs = ${languagesOf('product_fallback_key.product_id')}`,
      // The walk's index covers the test of the languages.
      sql`DROP INDEX product_fallback_key_order`,
      sql`CREATE INDEX product_fallback_key_order ON product_fallback_key(name_key, product_id, langs)`,
      sql`CREATE INDEX product_fallback_key_langs ON product_fallback_key(langs)`,
      sql`DROP TRIGGER product_fallback_key_text_insert`,
      sql`DROP TRIGGER product_fallback_key_text_delete`,
      sql`DROP TRIGGER product_fallback_key_text_update`,
      sql`CREATE TRIGGER product_fallback_key_text_insert AFTER INSERT ON product_text BEGIN
        ${refresh('NEW', true)}; END`,
      sql`CREATE TRIGGER product_fallback_key_text_delete AFTER DELETE ON product_text BEGIN
        ${refresh('OLD', true)}; END`,
      sql`CREATE TRIGGER product_fallback_key_text_update AFTER UPDATE OF value ON product_text
        WHEN OLD.product_id = NEW.product_id AND OLD.kind = NEW.kind AND OLD.lang = NEW.lang BEGIN
        ${refresh('OLD', false)}; END`,
      sql`CREATE TRIGGER product_fallback_key_text_move AFTER UPDATE OF product_id, kind, lang, value
        ON product_text WHEN OLD.product_id <> NEW.product_id OR OLD.kind <> NEW.kind OR OLD.lang <> NEW.lang
        BEGIN ${refresh('OLD', true)}; ${refresh('NEW', true)}; END`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
