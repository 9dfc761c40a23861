import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';

const KEY = String(NAME_KEY_LENGTH);

/**
 * The schema pg_trgm lives in: one per database, shared by every workspace schema (an extension
 * exists once per database; in a workspace's schema it would go when that workspace is dropped).
 */
export const EXTENSION_SCHEMA = 'pim_ext';

/**
 * The grid's indexes, PostgreSQL (docs/catalogue-grid.md): the name key as on SQLite (a btree
 * holds no value over about 2.7 kB, and names reach 1,000,000 characters, so only a prefix is
 * indexed), and pg_trgm's GIN indexes for `q`, which ILIKE '%…%' uses as they are.
 */
/** pg_trgm's GIN operator class, qualified: installed before pim, pg_trgm may live elsewhere. */
export async function trigramOpclass(db: Kysely<unknown>): Promise<RawBuilder<unknown>> {
  const found = await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
    JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(db);
  return sql.raw(`"${found.rows[0]!.schema.replaceAll('"', '""')}".gin_trgm_ops`);
}

export const gridIndexesPostgres: Migration = {
  async up(db) {
    await sql`CREATE INDEX product_short_text_name
      ON product_text(lang, (left(value, ${sql.raw(KEY)}) COLLATE "C"), product_id)
      WHERE kind = 'DESCRIPTIONSHORT'`.execute(db);
    // Workspaces migrate side by side: their CREATE EXTENSION IF NOT EXISTS would race.
    await sql`SELECT pg_advisory_xact_lock(hashtext('pim pg_trgm'))`.execute(db);
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(EXTENSION_SCHEMA)}`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA ${sql.id(EXTENSION_SCHEMA)}`.execute(db);
    const opclass = await trigramOpclass(db);
    await sql`CREATE INDEX product_supplier_pid_trgm ON product USING gin (supplier_pid ${opclass})`.execute(
      db,
    );
    // On the value as q compares it (COLLATE "C": ILIKE folding ASCII only): an index on the column
    // of the database's collation is not used for that expression.
    await sql`CREATE INDEX product_short_text_trgm ON product_text USING gin ((value COLLATE "C") ${opclass})
      WHERE kind = 'DESCRIPTIONSHORT'`.execute(db);
  },
};
