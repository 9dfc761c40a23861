import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = String(NAME_KEY_LENGTH);

/**
 * The search index of `q` (docs/catalogue-grid.md): one FTS5 row per supplierPid and per short
 * text, trigram-tokenised so that any substring of 3 characters or more is an index lookup.
 * Rowids tie a row to its source so that triggers find it again: a short text's is its
 * product_text rowid times 2, a supplierPid's the product id times 2 plus 1. Triggers keep it on
 * every write path (single writes, sheets, bulk, cascading deletes), as feature_value_key.
 */
async function createSearchIndex(db: Parameters<Migration['up']>[0]): Promise<void> {
  await sql`CREATE VIRTUAL TABLE product_search USING fts5(value, product_id UNINDEXED, tokenize = 'trigram')`.execute(
    db,
  );
  const statements = [
    sql`CREATE TRIGGER product_search_text_insert AFTER INSERT ON product_text
      WHEN NEW.kind = 'DESCRIPTIONSHORT' BEGIN
      INSERT INTO product_search (rowid, value, product_id) VALUES (NEW.rowid * 2, NEW.value, NEW.product_id); END`,
    sql`CREATE TRIGGER product_search_text_delete AFTER DELETE ON product_text
      WHEN OLD.kind = 'DESCRIPTIONSHORT' BEGIN
      DELETE FROM product_search WHERE rowid = OLD.rowid * 2; END`,
    sql`CREATE TRIGGER product_search_text_update AFTER UPDATE ON product_text BEGIN
      DELETE FROM product_search WHERE OLD.kind = 'DESCRIPTIONSHORT' AND rowid = OLD.rowid * 2;
      INSERT INTO product_search (rowid, value, product_id)
        SELECT NEW.rowid * 2, NEW.value, NEW.product_id WHERE NEW.kind = 'DESCRIPTIONSHORT'; END`,
    sql`CREATE TRIGGER product_search_product_insert AFTER INSERT ON product BEGIN
      INSERT INTO product_search (rowid, value, product_id) VALUES (NEW.id * 2 + 1, NEW.supplier_pid, NEW.id); END`,
    sql`CREATE TRIGGER product_search_product_delete AFTER DELETE ON product BEGIN
      DELETE FROM product_search WHERE rowid = OLD.id * 2 + 1; END`,
    sql`CREATE TRIGGER product_search_product_update AFTER UPDATE OF supplier_pid ON product BEGIN
      DELETE FROM product_search WHERE rowid = OLD.id * 2 + 1;
      INSERT INTO product_search (rowid, value, product_id) VALUES (NEW.id * 2 + 1, NEW.supplier_pid, NEW.id); END`,
  ];
  for (const statement of statements) await statement.execute(db);
  await rebuildSearchIndexSqlite(db);
}

/** Fills product_search from the tables (the migration; `pim db move` never copies it). */
export async function rebuildSearchIndexSqlite(db: Parameters<Migration['up']>[0]): Promise<void> {
  await sql`DELETE FROM product_search`.execute(db);
  await sql`INSERT INTO product_search (rowid, value, product_id)
    SELECT rowid * 2, value, product_id FROM product_text WHERE kind = 'DESCRIPTIONSHORT'`.execute(db);
  await sql`INSERT INTO product_search (rowid, value, product_id)
    SELECT id * 2 + 1, supplier_pid, id FROM product`.execute(db);
}

/**
 * The grid's indexes, SQLite (docs/catalogue-grid.md). Sorting by name walks short texts of one
 * language by their first characters (the name's key), then the product id.
 */
export const gridIndexesSqlite: Migration = {
  async up(db) {
    await sql`CREATE INDEX product_short_text_name
      ON product_text(lang, substr(value, 1, ${sql.raw(KEY)}), product_id)
      WHERE kind = 'DESCRIPTIONSHORT'`.execute(db);
    await createSearchIndex(db);
  },
};
