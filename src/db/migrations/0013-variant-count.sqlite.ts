import { sql, type Migration } from 'kysely';

/**
 * ProductDto.variantCount stored on the main product (docs/storage.md, "Variant counts"): a page
 * of the list read it by one seek per row into the variants' index before. Kept by triggers on
 * every write path that adds, removes or re-parents a variant (single writes, sheets, bulk,
 * cascading deletes), as feature_value_key. One row each: the main product exists before its
 * variants (a foreign key), so an increment is exact and never a recount of all its variants.
 */
export const variantCountSqlite: Migration = {
  async up(db) {
    const statements = [
      sql`ALTER TABLE product ADD COLUMN variant_count INTEGER NOT NULL DEFAULT 0`,
      sql`CREATE TRIGGER product_variant_count_insert AFTER INSERT ON product
        WHEN NEW.master_id IS NOT NULL BEGIN
        UPDATE product SET variant_count = variant_count + 1 WHERE id = NEW.master_id; END`,
      sql`CREATE TRIGGER product_variant_count_delete AFTER DELETE ON product
        WHEN OLD.master_id IS NOT NULL BEGIN
        UPDATE product SET variant_count = variant_count - 1 WHERE id = OLD.master_id; END`,
      sql`CREATE TRIGGER product_variant_count_move AFTER UPDATE OF master_id ON product
        WHEN OLD.master_id IS NOT NEW.master_id BEGIN
        UPDATE product SET variant_count = variant_count - 1 WHERE id = OLD.master_id;
        UPDATE product SET variant_count = variant_count + 1 WHERE id = NEW.master_id; END`,
      sql`UPDATE product SET variant_count = (SELECT count(*) FROM product v WHERE v.master_id = product.id)
        WHERE EXISTS (SELECT 1 FROM product v WHERE v.master_id = product.id)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
