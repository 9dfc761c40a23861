import { sql, type Migration } from 'kysely';
import { FEATURE_VALUE_KEY_LENGTH } from '../feature-value-key.js';

const KEY = String(FEATURE_VALUE_KEY_LENGTH);

/** As SQLite's createValueKeys: one trigger function keeps feature_value_key for every write of product_feature. */
const valueKeys = [
  sql`CREATE TABLE feature_value_key (
    feature_id integer NOT NULL,
    value_key text COLLATE "C" NOT NULL,
    product_id integer NOT NULL,
    occurrence integer NOT NULL,
    PRIMARY KEY (feature_id, value_key, product_id, occurrence)
  )`,
  sql.raw(`CREATE FUNCTION feature_value_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      DELETE FROM feature_value_key k WHERE k.feature_id = OLD.feature_id AND k.product_id = OLD.product_id
        AND k.occurrence = OLD.occurrence
        AND k.value_key IN (SELECT left(e ->> 'value', ${KEY}) FROM json_array_elements(OLD.values_json) e);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO feature_value_key (feature_id, value_key, product_id, occurrence)
        SELECT DISTINCT NEW.feature_id, left(e ->> 'value', ${KEY}), NEW.product_id, NEW.occurrence
        FROM json_array_elements(NEW.values_json) e
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$`),
  sql`CREATE TRIGGER feature_value_key_sync AFTER INSERT OR DELETE OR UPDATE OF feature_id, occurrence, values_json
    ON product_feature FOR EACH ROW EXECUTE FUNCTION feature_value_key_sync()`,
  sql.raw(`INSERT INTO feature_value_key (feature_id, value_key, product_id, occurrence)
    SELECT DISTINCT pf.feature_id, left(e ->> 'value', ${KEY}), pf.product_id, pf.occurrence
    FROM product_feature pf CROSS JOIN LATERAL json_array_elements(pf.values_json) e`),
];

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
      ...valueKeys,
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
