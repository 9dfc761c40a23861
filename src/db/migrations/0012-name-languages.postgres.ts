import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = String(NAME_KEY_LENGTH);

/** The key of product `id`'s first short text by language code, '' without any (as 0011). */
const firstKey = (id: string) => `COALESCE((SELECT t.name_key FROM product_text t
    WHERE t.product_id = ${id} AND t.kind = 'DESCRIPTIONSHORT' ORDER BY t.lang LIMIT 1), '')`;

/** The languages product `id` has a short text in, by code, each between commas (',deu,eng,'; '' without any). */
const languagesOf = (id: string) => `COALESCE((SELECT ',' || string_agg(t.lang, ',' ORDER BY t.lang) || ','
    FROM product_text t WHERE t.product_id = ${id} AND t.kind = 'DESCRIPTIONSHORT'), '')`;

/**
 * As the SQLite triggers: the key again when the short text `row` was (or is) the product's first,
 * the languages again when the text came, went or moved (not for a new value); one UPDATE.
 */
const refresh = (row: 'NEW' | 'OLD') => `IF ${row}.kind = 'DESCRIPTIONSHORT' THEN
      is_first := NOT EXISTS (SELECT 1 FROM product_text t WHERE t.product_id = ${row}.product_id
        AND t.kind = 'DESCRIPTIONSHORT' AND t.lang < ${row}.lang);
      IF is_first OR moved THEN
        UPDATE product_fallback_key
          SET name_key = CASE WHEN is_first THEN ${firstKey(`${row}.product_id`)} ELSE name_key END,
            langs = CASE WHEN moved THEN ${languagesOf(`${row}.product_id`)} ELSE langs END
          WHERE product_id = ${row}.product_id;
      END IF;
    END IF;`;

/**
 * As 0012-name-languages.sqlite.ts (the languages beside the fallback key, and their index), and
 * the name key as a column of product_text: PostgreSQL scans an index on an expression only
 * together with the table (the expression's column must be in the index for an index-only scan,
 * and the value may be 1,000,000 characters), so the sort by name's walks read the table row of
 * every entry they pass. A stored generated column is kept by PostgreSQL itself on every write;
 * `pim db move` leaves it out of the copy (the target computes it).
 */
export const nameLanguagesPostgres: Migration = {
  async up(db) {
    const statements = [
      `ALTER TABLE product_text ADD COLUMN name_key text COLLATE "C"
        GENERATED ALWAYS AS (CASE WHEN kind = 'DESCRIPTIONSHORT' THEN left(value, ${KEY}) END) STORED`,
      `DROP INDEX product_short_text_name`,
      `CREATE INDEX product_short_text_name ON product_text(lang, name_key, product_id)
        WHERE kind = 'DESCRIPTIONSHORT'`,
      `ALTER TABLE product_fallback_key ADD COLUMN langs text COLLATE "C" NOT NULL DEFAULT ''`,
      `UPDATE product_fallback_key fk SET langs = ${languagesOf('fk.product_id')}`,
      `DROP INDEX product_fallback_key_order`,
      `CREATE INDEX product_fallback_key_order ON product_fallback_key(name_key, product_id) INCLUDE (langs)`,
      `CREATE INDEX product_fallback_key_langs ON product_fallback_key(langs)`,
      `CREATE OR REPLACE FUNCTION product_fallback_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        is_first boolean;
        moved boolean := true;
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          moved := (OLD.product_id, OLD.kind, OLD.lang) IS DISTINCT FROM (NEW.product_id, NEW.kind, NEW.lang);
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN ${refresh('OLD')} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${refresh('NEW')} END IF;
        RETURN NULL;
      END $$`,
      // Inserted texts per statement: a product's key and languages once, however many of its texts
      // a statement adds (a bulk write adds them all at once). Per row, every text after the first
      // was one more UPDATE of the product's row: 100,000 texts 7.9 s instead of 1.7 without.
      `CREATE FUNCTION product_fallback_key_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE product_fallback_key fk
          SET name_key = ${firstKey('fk.product_id')}, langs = ${languagesOf('fk.product_id')}
          WHERE fk.product_id IN (SELECT a.product_id FROM added a WHERE a.kind = 'DESCRIPTIONSHORT');
        RETURN NULL;
      END $$`,
      `DROP TRIGGER product_fallback_key_sync ON product_text`,
      `CREATE TRIGGER product_fallback_key_sync AFTER DELETE OR UPDATE OF product_id, kind, lang, value
        ON product_text FOR EACH ROW EXECUTE FUNCTION product_fallback_key_sync()`,
      `CREATE TRIGGER product_fallback_key_added AFTER INSERT ON product_text
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION product_fallback_key_added()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};
