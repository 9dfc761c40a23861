import { sql, type Migration, type RawBuilder } from 'kysely';
import { stepsOf } from './migrations/workspace-steps.js';

/** TextEntryDto[] as compact JSON text of rows (lang, value) in the rows' order, as JSON.stringify writes it. */
const langValuesJson = (rows: RawBuilder<unknown>) =>
  sql`(SELECT '[' || COALESCE(group_concat(json_object('lang', lv.lang, 'value', lv.value), ','), '') || ']' FROM (${rows}) lv)`;

export const workspaceMigrations: Record<string, Migration> = {
  '0001_catalogue': {
    async up(db) {
      const statements = [
        sql`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
        sql`CREATE TABLE product_group (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          parent_id INTEGER REFERENCES product_group(id) ON DELETE CASCADE,
          bmecat_id TEXT NOT NULL UNIQUE,
          next_child_seq INTEGER NOT NULL DEFAULT 1,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`,
        sql`CREATE INDEX product_group_parent ON product_group(parent_id, id)`,
        sql`CREATE TABLE product_group_name (
          group_id INTEGER NOT NULL REFERENCES product_group(id) ON DELETE CASCADE,
          lang TEXT NOT NULL,
          name TEXT NOT NULL,
          PRIMARY KEY (group_id, lang)
        ) WITHOUT ROWID`,
        sql`CREATE TABLE product (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          supplier_pid TEXT NOT NULL UNIQUE,
          supplier_id_ref TEXT,
          ean TEXT,
          manufacturer_pid TEXT,
          master_id INTEGER REFERENCES product(id) ON DELETE CASCADE,
          group_id INTEGER REFERENCES product_group(id) ON DELETE SET NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`,
        sql`CREATE INDEX product_master ON product(master_id, id)`,
        sql`CREATE INDEX product_group_member ON product(group_id, id)`,
        sql`CREATE INDEX product_updated ON product(updated_at, id)`,
        sql`CREATE INDEX product_ean ON product(ean)`,
        // Rowid tables: text values reach 1,000,000 characters, too large for WITHOUT ROWID rows.
        sql`CREATE TABLE product_text (
          product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('DESCRIPTIONSHORT', 'DESCRIPTIONLONG')),
          lang TEXT NOT NULL,
          value TEXT NOT NULL,
          UNIQUE (product_id, kind, lang)
        )`,
        sql`CREATE TABLE feature_def (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          ftidref TEXT NOT NULL UNIQUE,
          default_unit TEXT
        )`,
        sql`CREATE TABLE feature_def_name (
          feature_id INTEGER NOT NULL REFERENCES feature_def(id) ON DELETE CASCADE,
          lang TEXT NOT NULL,
          name TEXT NOT NULL,
          PRIMARY KEY (feature_id, lang)
        ) WITHOUT ROWID`,
        sql`CREATE TABLE product_feature (
          product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
          feature_id INTEGER NOT NULL REFERENCES feature_def(id) ON DELETE RESTRICT,
          funit TEXT,
          position INTEGER NOT NULL,
          PRIMARY KEY (product_id, feature_id)
        ) WITHOUT ROWID`,
        sql`CREATE INDEX product_feature_def ON product_feature(feature_id)`,
        sql`CREATE TABLE product_feature_value (
          product_id INTEGER NOT NULL,
          feature_id INTEGER NOT NULL,
          lang TEXT NOT NULL,
          value TEXT NOT NULL,
          UNIQUE (product_id, feature_id, lang),
          FOREIGN KEY (product_id, feature_id) REFERENCES product_feature(product_id, feature_id) ON DELETE CASCADE
        )`,
      ];
      for (const statement of statements) await statement.execute(db);
    },
  },
  '0002_short_text_index': {
    async up(db) {
      // Lists resolve ProductDto.name for every row. Short texts share their table with long
      // texts of up to 1,000,000 characters, so reading them through the table scatters over
      // it; this partial covering index keeps the short texts together (measured on 100,000
      // products: the full list's SQL from 321 to 254 ms).
      await sql`CREATE INDEX product_short_text ON product_text(product_id, lang, value)
        WHERE kind = 'DESCRIPTIONSHORT'`.execute(db);
    },
  },
  '0003_product_deletion': {
    async up(db) {
      // Deletes for delta sync (GET /api/product/deleted): ids are never reused, so the id is the key.
      await sql`CREATE TABLE product_deletion (
        id INTEGER PRIMARY KEY,
        supplier_pid TEXT NOT NULL,
        deleted_at TEXT NOT NULL
      )`.execute(db);
      await sql`CREATE INDEX product_deletion_at ON product_deletion(deleted_at, id)`.execute(db);
    },
  },
  '0004_change_counter': {
    async up(db) {
      // The workspace's change counter (docs/conditional-requests.md): one row, raised by one in
      // every transaction that changed the catalogue. A product's revision rises with every change
      // of the product (wherever updated_at is touched); both are the versions behind ETags.
      await sql`CREATE TABLE change_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        value INTEGER NOT NULL
      )`.execute(db);
      await sql`INSERT INTO change_counter (id, value) VALUES (1, 0)`.execute(db);
      await sql`ALTER TABLE product ADD COLUMN revision INTEGER NOT NULL DEFAULT 1`.execute(db);
    },
  },
  '0005_feature_value_key': {
    async up(db) {
      // Feature values are short (numbers, codes, words): keyed by (product, feature, language) in a
      // WITHOUT ROWID table they are one B-tree instead of a table plus its unique index, and a
      // product's values are one range of it. Measured on the 100,000-product benchmark: the bulk
      // upsert's value rows 3.2 → 3.0 s per 100,000 products, the product sheet about 5 % faster.
      // Long values still work (overflow pages); they are rare in features.
      await sql`CREATE TABLE product_feature_value_keyed (
          product_id INTEGER NOT NULL,
          feature_id INTEGER NOT NULL,
          lang TEXT NOT NULL,
          value TEXT NOT NULL,
          PRIMARY KEY (product_id, feature_id, lang),
          FOREIGN KEY (product_id, feature_id) REFERENCES product_feature(product_id, feature_id) ON DELETE CASCADE
        ) WITHOUT ROWID`.execute(db);
      await sql`INSERT INTO product_feature_value_keyed (product_id, feature_id, lang, value)
        SELECT product_id, feature_id, lang, value FROM product_feature_value`.execute(db);
      await sql`DROP TABLE product_feature_value`.execute(db);
      await sql`ALTER TABLE product_feature_value_keyed RENAME TO product_feature_value`.execute(db);
    },
  },
  '0006_change_stamp': {
    async up(db) {
      // The newest stamp committed (docs/products.md, "Delta sync in commit order"): writes pass the
      // counter's row one at a time, so stamps handed out there follow the commit order.
      await sql`ALTER TABLE change_counter ADD COLUMN stamp TEXT NOT NULL DEFAULT ''`.execute(db);
      await sql`UPDATE change_counter SET stamp = max(
          COALESCE((SELECT max(updated_at) FROM product), ''),
          COALESCE((SELECT max(deleted_at) FROM product_deletion), ''))`.execute(db);
    },
  },
  '0007_feature_values_json': {
    async up(db) {
      // A feature's values and a definition's names are kept as the JSON text of TextEntryDto[]
      // (ordered by language) in the feature's and the definition's row: the product sheet and
      // GET .../features then read one range of product_feature instead of a subquery per feature
      // into two more tables. Measured on the 100,000-product benchmark, the sheet's statement
      // alone: 160 → 93 µs (median, random products); the values take 115 MB instead of
      // product_feature's 17 plus product_feature_value's 61 (docs/storage.md, "Feature values").
      await sql`CREATE TABLE product_feature_next (
          product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
          feature_id INTEGER NOT NULL REFERENCES feature_def(id) ON DELETE RESTRICT,
          funit TEXT,
          position INTEGER NOT NULL,
          values_json TEXT NOT NULL DEFAULT '[]',
          PRIMARY KEY (product_id, feature_id)
        ) WITHOUT ROWID`.execute(db);
      await sql`INSERT INTO product_feature_next (product_id, feature_id, funit, position, values_json)
        SELECT pf.product_id, pf.feature_id, pf.funit, pf.position, ${langValuesJson(
          sql`SELECT fv.lang, fv.value FROM product_feature_value fv
            WHERE fv.product_id = pf.product_id AND fv.feature_id = pf.feature_id ORDER BY fv.lang`,
        )} FROM product_feature pf`.execute(db);
      await sql`DROP TABLE product_feature_value`.execute(db);
      await sql`DROP TABLE product_feature`.execute(db);
      await sql`ALTER TABLE product_feature_next RENAME TO product_feature`.execute(db);
      await sql`CREATE INDEX product_feature_def ON product_feature(feature_id)`.execute(db);
      await sql`ALTER TABLE feature_def ADD COLUMN names_json TEXT NOT NULL DEFAULT '[]'`.execute(db);
      await sql`UPDATE feature_def SET names_json = ${langValuesJson(
        sql`SELECT n.lang, n.name AS value FROM feature_def_name n WHERE n.feature_id = feature_def.id ORDER BY n.lang`,
      )}`.execute(db);
      await sql`DROP TABLE feature_def_name`.execute(db);
    },
  },
  ...stepsOf('sqlite'),
};
