import { sql, type Migration } from 'kysely';

/** As 0008-product-model.sqlite.ts, on PostgreSQL (text compared or ordered in the C collation). */
export const productModelPostgres: Migration = {
  async up(db) {
    const statements = [
      sql`ALTER TABLE product_feature ADD COLUMN occurrence integer NOT NULL DEFAULT 1 CHECK (occurrence >= 1)`,
      sql`ALTER TABLE product_feature ADD COLUMN details_json json`,
      sql`ALTER TABLE product_feature DROP CONSTRAINT product_feature_pkey`,
      sql`ALTER TABLE product_feature ADD PRIMARY KEY (product_id, feature_id, occurrence)`,
      sql`DROP INDEX product_feature_def`,
      sql`CREATE INDEX product_feature_def ON product_feature(feature_id, product_id)`,
      sql`ALTER TABLE product ADD COLUMN manufacturer_name text`,
      sql`ALTER TABLE product_group ADD COLUMN catalog_group_id text`,
      sql`CREATE TABLE product_keyword (
        product_id integer NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        lang text COLLATE "C" NOT NULL,
        position integer NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (product_id, lang, position)
      )`,
      sql`CREATE TABLE product_media (
        product_id integer NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position integer NOT NULL,
        mime_type text,
        source text NOT NULL,
        descriptions_json json NOT NULL DEFAULT '[]',
        purpose text,
        mime_order integer,
        PRIMARY KEY (product_id, position)
      )`,
      sql`CREATE TABLE product_extra_group (
        product_id integer NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position integer NOT NULL,
        group_id integer NOT NULL REFERENCES product_group(id) ON DELETE CASCADE,
        PRIMARY KEY (product_id, position),
        UNIQUE (product_id, group_id)
      )`,
      sql`CREATE INDEX product_extra_group_member ON product_extra_group(group_id, product_id)`,
      sql`CREATE TABLE product_fragment (
        product_id integer NOT NULL REFERENCES product(id) ON DELETE CASCADE,
        position integer NOT NULL,
        place text NOT NULL,
        xml text NOT NULL,
        PRIMARY KEY (product_id, position)
      )`,
      sql`CREATE TABLE catalog_fragment (
        position integer PRIMARY KEY,
        place text NOT NULL,
        xml text NOT NULL
      )`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
