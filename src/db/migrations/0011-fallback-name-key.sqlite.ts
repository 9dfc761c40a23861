import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = sql.raw(String(NAME_KEY_LENGTH));
const SHORT = sql.lit('DESCRIPTIONSHORT');

/** The key of product `id`'s first short text by language code, '' without any (its fallback name). */
function firstKey(id: string) {
  const product = sql.raw(id);
  return sql`COALESCE((SELECT substr(t.value, 1, ${KEY}) FROM product_text t
    WHERE t.product_id = ${product} AND t.kind = ${SHORT} ORDER BY t.lang LIMIT 1), '')`;
}

/**
 * Sets product `row.product_id`'s key again when the short text `row` was (or is) its first: a
 * text after another of the product changes nothing. Triggers run per row while the statement
 * runs, so a statement touching several texts of a product ends with the key of what remains.
 */
function refresh(row: 'NEW' | 'OLD') {
  const r = sql.raw(row);
  return sql`UPDATE product_fallback_key SET name_key = ${firstKey(`${row}.product_id`)}
    WHERE product_id = ${r}.product_id AND ${r}.kind = ${SHORT}
      AND NOT EXISTS (SELECT 1 FROM product_text t WHERE t.product_id = ${r}.product_id
        AND t.kind = ${SHORT} AND t.lang < ${r}.lang)`;
}

/**
 * The sort by name's fallback keys (docs/catalogue-grid.md): per product, the key of its first
 * short text by language code, '' without any, the name a product shows in every language it
 * lacks. Indexed by (key, id), products lacking the grid's language are read in name order
 * instead of keyed on the fly over the whole catalogue per page. Kept by triggers on every write
 * path (single writes, sheets, bulk, cascading deletes), as feature_value_key.
 */
export const fallbackNameKeySqlite: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE TABLE product_fallback_key (
        product_id INTEGER PRIMARY KEY REFERENCES product(id) ON DELETE CASCADE,
        name_key TEXT NOT NULL
      )`,
      sql`CREATE INDEX product_fallback_key_order ON product_fallback_key(name_key, product_id)`,
      sql`CREATE TRIGGER product_fallback_key_product AFTER INSERT ON product BEGIN
        INSERT INTO product_fallback_key (product_id, name_key) VALUES (NEW.id, ''); END`,
      sql`CREATE TRIGGER product_fallback_key_text_insert AFTER INSERT ON product_text BEGIN
        ${refresh('NEW')}; END`,
      sql`CREATE TRIGGER product_fallback_key_text_delete AFTER DELETE ON product_text BEGIN
        ${refresh('OLD')}; END`,
      sql`CREATE TRIGGER product_fallback_key_text_update AFTER UPDATE OF product_id, kind, lang, value
        ON product_text BEGIN ${refresh('OLD')}; ${refresh('NEW')}; END`,
      sql`INSERT INTO product_fallback_key (product_id, name_key) SELECT p.id, ${firstKey('p.id')} FROM product p`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
