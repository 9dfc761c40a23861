import { sql, type Kysely, type Migration } from 'kysely';
import { FEATURE_VALUE_KEY_LENGTH } from '../feature-value-key.js';

/** The keys of the values of a product_feature row (`row` is NEW or OLD), as rows of one column `k`. */
const keysOf = (row: 'NEW' | 'OLD') =>
  sql.raw(`SELECT DISTINCT substr(json_extract(j.value, '$.value'), 1, ${FEATURE_VALUE_KEY_LENGTH}) AS k
    FROM json_each(${row}.values_json) j`);

/**
 * Feature values as an index (docs/storage.md, "Filtering by feature value"): one row per distinct
 * value (its first characters) of each occurrence, kept by triggers, so that every write path
 * (single routes, sheets, bulk, cascading deletes) keeps it without knowing of it.
 */
async function createValueKeys(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE feature_value_key (
      feature_id INTEGER NOT NULL,
      value_key TEXT NOT NULL,
      product_id INTEGER NOT NULL,
      occurrence INTEGER NOT NULL,
      PRIMARY KEY (feature_id, value_key, product_id, occurrence)
    ) WITHOUT ROWID`.execute(db);
  const add = (
    row: 'NEW',
  ) => sql`INSERT OR IGNORE INTO feature_value_key (feature_id, value_key, product_id, occurrence)
    SELECT ${sql.raw(row)}.feature_id, k, ${sql.raw(row)}.product_id, ${sql.raw(row)}.occurrence FROM (${keysOf(row)})`;
  const drop = (row: 'OLD') => sql`DELETE FROM feature_value_key WHERE feature_id = ${sql.raw(row)}.feature_id
    AND product_id = ${sql.raw(row)}.product_id AND occurrence = ${sql.raw(row)}.occurrence
    AND value_key IN (${keysOf(row)})`;
  await sql`CREATE TRIGGER feature_value_key_insert AFTER INSERT ON product_feature BEGIN ${add('NEW')}; END`.execute(
    db,
  );
  await sql`CREATE TRIGGER feature_value_key_delete AFTER DELETE ON product_feature BEGIN ${drop('OLD')}; END`.execute(
    db,
  );
  await sql`CREATE TRIGGER feature_value_key_update AFTER UPDATE OF feature_id, occurrence, values_json ON product_feature
    BEGIN ${drop('OLD')}; ${add('NEW')}; END`.execute(db);
  await sql`INSERT OR IGNORE INTO feature_value_key (feature_id, value_key, product_id, occurrence)
    SELECT pf.feature_id, substr(json_extract(j.value, '$.value'), 1, ${sql.raw(String(FEATURE_VALUE_KEY_LENGTH))}),
      pf.product_id, pf.occurrence
    FROM product_feature pf, json_each(pf.values_json) j`.execute(db);
}

/**
 * The product model for real supplier catalogues (docs/storage.md, "The product model"), SQLite.
 * Its PostgreSQL twin has the same name and makes the same tables (0008-product-model.postgres.ts).
 */
export const productModelSqlite: Migration = {
  async up(db) {
    // A product may carry one feature id several times (ECLASS Advanced repeats them): an
    // occurrence is the nth feature of that id in the product (1 = the one the single feature
    // routes address). Still keyed by product first, so a product's features are one range.
    await sql`CREATE TABLE product_feature_next (
        product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        feature_id INTEGER NOT NULL REFERENCES feature_def(id) ON DELETE RESTRICT,
        occurrence INTEGER NOT NULL DEFAULT 1 CHECK (occurrence >= 1),
        funit TEXT,
        position INTEGER NOT NULL,
        values_json TEXT NOT NULL DEFAULT '[]',
        details_json TEXT,
        PRIMARY KEY (product_id, feature_id, occurrence)
      ) WITHOUT ROWID`.execute(db);
    await sql`INSERT INTO product_feature_next (product_id, feature_id, occurrence, funit, position, values_json)
      SELECT product_id, feature_id, 1, funit, position, values_json FROM product_feature`.execute(db);
    await sql`DROP TABLE product_feature`.execute(db);
    await sql`ALTER TABLE product_feature_next RENAME TO product_feature`.execute(db);
    await sql`CREATE INDEX product_feature_def ON product_feature(feature_id, product_id)`.execute(db);

    await createValueKeys(db);

    await sql`ALTER TABLE product ADD COLUMN manufacturer_name TEXT`.execute(db);
    await sql`ALTER TABLE product_group ADD COLUMN catalog_group_id TEXT`.execute(db);
    await sql`CREATE TABLE product_keyword (
        product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        lang TEXT NOT NULL,
        position INTEGER NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (product_id, lang, position)
      ) WITHOUT ROWID`.execute(db);
    await sql`CREATE TABLE product_media (
        product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        mime_type TEXT,
        source TEXT NOT NULL,
        descriptions_json TEXT NOT NULL DEFAULT '[]',
        purpose TEXT,
        mime_order INTEGER,
        PRIMARY KEY (product_id, position)
      ) WITHOUT ROWID`.execute(db);
    // The groups beyond the first (product.group_id), in the catalogue's order.
    await sql`CREATE TABLE product_extra_group (
        product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        group_id INTEGER NOT NULL REFERENCES product_group(id) ON DELETE CASCADE,
        PRIMARY KEY (product_id, position),
        UNIQUE (product_id, group_id)
      ) WITHOUT ROWID`.execute(db);
    await sql`CREATE INDEX product_extra_group_member ON product_extra_group(group_id, product_id)`.execute(
      db,
    );
    // Content pim does not model, kept verbatim with its place. Rowid tables: fragments may be long.
    await sql`CREATE TABLE product_fragment (
        product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        place TEXT NOT NULL,
        xml TEXT NOT NULL,
        UNIQUE (product_id, position)
      )`.execute(db);
    await sql`CREATE TABLE catalog_fragment (
        position INTEGER PRIMARY KEY,
        place TEXT NOT NULL,
        xml TEXT NOT NULL
      )`.execute(db);
  },
};
