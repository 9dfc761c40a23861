import type pg from 'pg';
import { quoteName } from './table-plan.js';

/** Quotes a name as PostgreSQL printed it (any characters). */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface Constraint {
  table_name: string;
  name: string;
  kind: 'p' | 'u' | 'f';
  definition: string;
}

/**
 * Runs a bulk load into a schema's tables stripped of their keys, foreign keys and indexes,
 * and builds them again afterwards from the definitions PostgreSQL itself prints for them
 * (pg_get_constraintdef, pg_get_indexdef), so the schema ends exactly as its migrations made it.
 *
 * Why: an index built once over a loaded table (a sort) costs a fraction of maintaining it row
 * by row, and a foreign key checked once over the table is far cheaper than a trigger per
 * inserted row (millions of feature values). Rows may then also arrive in any order: a group
 * before its parent, a variant before its main product. Nothing is skipped: adding a key or a
 * foreign key back checks every row, so a duplicate or an orphan fails the move. Only for a
 * schema the move created itself, inside its transaction: nobody else sees the bare tables.
 */
/** Triggers of the workspace migrations that write rows of other tables (table, trigger). */
const DERIVING_TRIGGERS = [
  ['product_feature', 'feature_value_key_sync'],
  ['product_feature', 'feature_value_key_inserted'],
  ['product_feature', 'feature_language_inserted'],
  ['product_feature', 'feature_language_updated'],
  ['product', 'product_fallback_key_add'],
  // Main products' variant_count is copied with their rows; the variants' rows would add to it again.
  ['product', 'product_variant_count_add'],
  ['product_text', 'product_fallback_key_changed'],
  ['product_text', 'product_fallback_key_gone'],
  ['product_text', 'product_fallback_key_added'],
  // product_search_string is filled once after the load (move-workspace.ts).
  ['product', 'product_search_string_add'],
  ['product', 'product_search_string_pid'],
  ['product_text', 'product_search_string_texts_added'],
  ['product_text', 'product_search_string_texts_changed'],
  ['product_text', 'product_search_string_texts_gone'],
] as const;

export async function loadIntoBareTables<T>(
  client: pg.ClientBase,
  schema: string,
  tables: string[],
  load: () => Promise<T>,
): Promise<T> {
  // Foreign keys first: they depend on the referenced tables' keys.
  const constraints = await client.query<Constraint>(
    `SELECT c.relname AS table_name, con.conname AS name, con.contype AS kind,
            pg_get_constraintdef(con.oid) AS definition
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) AND con.contype IN ('f', 'p', 'u')
      ORDER BY con.contype = 'f' DESC, c.relname, con.conname`,
    [schema, tables],
  );
  // Indexes of their own (those of keys go and come with their constraint).
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class c ON c.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint con
                         WHERE con.conindid = x.indexrelid AND con.contype IN ('p', 'u', 'x'))
      ORDER BY i.relname`,
    [schema, tables],
  );
  for (const c of constraints.rows) {
    await client.query(`ALTER TABLE ${quoteName(c.table_name)} DROP CONSTRAINT ${quoteIdentifier(c.name)}`);
  }
  for (const index of indexes.rows) await client.query(`DROP INDEX ${quoteIdentifier(index.name)}`);
  // Rows the migrations' triggers derive from others are copied as they are: the triggers would
  // write them a second time.
  for (const [table, trigger] of DERIVING_TRIGGERS) {
    if (tables.includes(table))
      await client.query(`ALTER TABLE ${quoteName(table)} DISABLE TRIGGER ${trigger}`);
  }
  const result = await load();
  for (const [table, trigger] of DERIVING_TRIGGERS) {
    if (tables.includes(table))
      await client.query(`ALTER TABLE ${quoteName(table)} ENABLE TRIGGER ${trigger}`);
  }
  // Index builds sort; more memory than the default 64 MB keeps the sort of millions of rows in memory.
  await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
  for (const index of indexes.rows) await client.query(index.definition);
  for (const c of [...constraints.rows].reverse()) {
    await client.query(
      `ALTER TABLE ${quoteName(c.table_name)} ADD CONSTRAINT ${quoteIdentifier(c.name)} ${c.definition}`,
    );
  }
  return result;
}
