import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = String(NAME_KEY_LENGTH);

/** The key of product `id`'s first short text by language code, '' without any. */
const firstKey = (id: string) => `COALESCE((SELECT left(t.value, ${KEY}) FROM product_text t
    WHERE t.product_id = ${id} AND t.kind = 'DESCRIPTIONSHORT' ORDER BY t.lang LIMIT 1), '')`;

/** As the SQLite triggers' refresh: the key again when the short text `row` was (or is) the product's first. */
const refresh = (row: 'NEW' | 'OLD') => `IF ${row}.kind = 'DESCRIPTIONSHORT' AND NOT EXISTS (SELECT 1
      FROM product_text t WHERE t.product_id = ${row}.product_id AND t.kind = 'DESCRIPTIONSHORT'
        AND t.lang < ${row}.lang) THEN
      UPDATE product_fallback_key SET name_key = ${firstKey(`${row}.product_id`)}
        WHERE product_id = ${row}.product_id;
    END IF;`;

/** As 0011-fallback-name-key.sqlite.ts, on PostgreSQL (the key compared in the C collation). */
export const fallbackNameKeyPostgres: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE TABLE product_fallback_key (
        product_id integer PRIMARY KEY REFERENCES product(id) ON DELETE CASCADE,
        name_key text COLLATE "C" NOT NULL
      )`,
      sql`CREATE INDEX product_fallback_key_order ON product_fallback_key(name_key, product_id)`,
      // Per statement: a bulk insert of products writes their rows in one go.
      sql.raw(`CREATE FUNCTION product_fallback_key_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO product_fallback_key (product_id, name_key) SELECT a.id, '' FROM added a;
        RETURN NULL;
      END $$`),
      sql`CREATE TRIGGER product_fallback_key_add AFTER INSERT ON product
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION product_fallback_key_add()`,
      sql.raw(`CREATE FUNCTION product_fallback_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN ${refresh('OLD')} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${refresh('NEW')} END IF;
        RETURN NULL;
      END $$`),
      sql`CREATE TRIGGER product_fallback_key_sync AFTER INSERT OR DELETE OR UPDATE OF product_id, kind, lang, value
        ON product_text FOR EACH ROW EXECUTE FUNCTION product_fallback_key_sync()`,
      sql.raw(
        `INSERT INTO product_fallback_key (product_id, name_key) SELECT p.id, ${firstKey('p.id')} FROM product p`,
      ),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
