import { sql, type Migration } from 'kysely';

/**
 * As 0013-variant-count.sqlite.ts, on PostgreSQL. Inserts and deletes per statement (a bulk
 * insert of variants adds to each main product once; a cascading delete of a main product's
 * variants is one statement); a change of master_id per row, with a WHEN that every other update
 * of a product (each write touches updated_at) passes without running the function.
 */
export const variantCountPostgres: Migration = {
  async up(db) {
    const statements = [
      sql`ALTER TABLE product ADD COLUMN variant_count integer NOT NULL DEFAULT 0`,
      sql.raw(`CREATE FUNCTION product_variant_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE product p SET variant_count = p.variant_count + a.n
          FROM (SELECT master_id, count(*) AS n FROM added WHERE master_id IS NOT NULL
                GROUP BY master_id) a
          WHERE p.id = a.master_id;
        RETURN NULL;
      END $$`),
      sql`CREATE TRIGGER product_variant_count_add AFTER INSERT ON product
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION product_variant_count_add()`,
      sql.raw(`CREATE FUNCTION product_variant_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE product p SET variant_count = p.variant_count - r.n
          FROM (SELECT master_id, count(*) AS n FROM removed WHERE master_id IS NOT NULL
                GROUP BY master_id) r
          WHERE p.id = r.master_id;
        RETURN NULL;
      END $$`),
      sql`CREATE TRIGGER product_variant_count_remove AFTER DELETE ON product
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION product_variant_count_remove()`,
      sql.raw(`CREATE FUNCTION product_variant_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE product SET variant_count = variant_count - 1 WHERE id = OLD.master_id;
        UPDATE product SET variant_count = variant_count + 1 WHERE id = NEW.master_id;
        RETURN NULL;
      END $$`),
      sql`CREATE TRIGGER product_variant_count_move AFTER UPDATE OF master_id ON product
        FOR EACH ROW WHEN (OLD.master_id IS DISTINCT FROM NEW.master_id)
        EXECUTE FUNCTION product_variant_count_move()`,
      sql`UPDATE product p SET variant_count = v.n
        FROM (SELECT master_id, count(*) AS n FROM product WHERE master_id IS NOT NULL GROUP BY master_id) v
        WHERE p.id = v.master_id`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
