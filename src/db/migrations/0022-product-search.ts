import { sql, type Migration } from 'kysely';
import { statementTrigger } from './statement-trigger.js';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * A search text: product `p`'s supplierPid, then `texts` (its short texts by language, joined by
 * SEARCH_TEXT_SEPARATOR, U+0001, as E'\\x01' here; null without any) after the same separator,
 * the ASCII letters folded as ILIKE folds them under the C collation, which the other searches
 * use: `text LIKE lower(pattern)` matches exactly when one of the parts matches `ILIKE pattern`.
 */
const searchText = (texts: string) =>
  `lower((p.supplier_pid || COALESCE(E'\\x01' || ${texts}, '')) COLLATE "C")`;

/** Its short texts, joined, in the order a search text holds them. */
const joinedTexts = `string_agg(t.value, E'\\x01' ORDER BY t.lang)`;

/**
 * Fills product_search_string for every product (the upgrade, and `pim db move` after its bare
 * load): set-based, a hash join of the products with their texts' aggregates, because the move
 * runs it while the tables have no index (a subquery per product then read every text row: the
 * move of the benchmark catalogue did not end in 4 minutes).
 */
export const FILL_PRODUCT_SEARCH_STRING = `INSERT INTO product_search_string (product_id, text)
  SELECT p.id, ${searchText('s.texts')} FROM product p
    LEFT JOIN (SELECT t.product_id, ${joinedTexts} AS texts FROM product_text t
      WHERE t.kind = 'DESCRIPTIONSHORT' GROUP BY t.product_id) s ON s.product_id = p.id`;

/** The search texts of the products in `ids` (a subquery) again. */
const refresh = (ids: string) => `UPDATE product_search_string s
    SET text = ${searchText(`(SELECT ${joinedTexts} FROM product_text t
      WHERE t.product_id = p.id AND t.kind = 'DESCRIPTIONSHORT')`)}
    FROM product p WHERE p.id = s.product_id AND s.product_id IN (${ids})`;

/**
 * PostgreSQL's search of one or two characters: pg_trgm's index needs three, so such a term read
 * the name keys of every short text (300,000 on the benchmark catalogue) and the products'
 * supplierPids with ILIKE, then joined the matches: 150–250 ms a statement, and the window sends
 * two (the count and the first rows; 395 ms for the user against a goal of 300). product_search_string
 * holds one row per product with its supplierPid and short texts in one folded string (13 MB for
 * 100,000 products): a count is one scan of it with LIKE (17 ms for "st", 49,468 matches), and the
 * first rows by id stop at the 100th match. Kept by statement triggers (a bulk write refreshes each
 * product once per statement) and a row trigger for a changed supplierPid, which is rare. Like
 * product_fallback_key it relies on the writers' product row locks (product-lock-sql.ts): two
 * writes to one product's texts never run side by side, so the second reads the first's texts.
 * SQLite searches short terms through its name keys and FTS5 already (186 ms in the window).
 */
const postgres: Migration = {
  async up(db) {
    const statements = [
      `CREATE TABLE product_search_string (
        product_id integer PRIMARY KEY REFERENCES product(id) ON DELETE CASCADE,
        text text COLLATE "C" NOT NULL
      )`,
      ...statementTrigger(
        'product_search_string_add',
        'INSERT',
        'product',
        `INSERT INTO product_search_string (product_id, text)
          SELECT a.id, lower(a.supplier_pid COLLATE "C") FROM added a`,
      ),
      `CREATE FUNCTION product_search_string_pid() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${refresh('NEW.id')};
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER product_search_string_pid AFTER UPDATE OF supplier_pid ON product FOR EACH ROW
        WHEN (OLD.supplier_pid IS DISTINCT FROM NEW.supplier_pid) EXECUTE FUNCTION product_search_string_pid()`,
      // Texts: per statement, from the transition tables (a statement trigger cannot name columns,
      // so an update of long texts fires it too and finds no short text in its rows). An UPDATE,
      // never an insert: a product being deleted keeps no row.
      ...statementTrigger(
        'product_search_string_texts_added',
        'INSERT',
        'product_text',
        refresh(`SELECT a.product_id FROM added a WHERE a.kind = 'DESCRIPTIONSHORT'`),
      ),
      ...statementTrigger(
        'product_search_string_texts_changed',
        'UPDATE',
        'product_text',
        refresh(`SELECT c.product_id FROM changed c WHERE c.kind = 'DESCRIPTIONSHORT'
          UNION SELECT b.product_id FROM before b WHERE b.kind = 'DESCRIPTIONSHORT'`),
      ),
      ...statementTrigger(
        'product_search_string_texts_gone',
        'DELETE',
        'product_text',
        refresh(`SELECT b.product_id FROM before b WHERE b.kind = 'DESCRIPTIONSHORT'`),
      ),
      FILL_PRODUCT_SEARCH_STRING,
      // Migration 0018's index served the short search this replaces; nothing else reads it.
      `DROP INDEX product_short_text_beyond_key`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // SQLite's short search reads the name keys by its covering index (docs/catalogue-grid.md).
  },
};

export const productSearch: WorkspaceStep = { sqlite, postgres };
