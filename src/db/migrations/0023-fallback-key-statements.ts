import { sql, type Migration } from 'kysely';
import { statementTrigger } from './statement-trigger.js';
import type { WorkspaceStep } from './workspace-steps.js';

/** The products whose short texts a statement touched, from its transition tables. */
const touched = (tables: readonly string[]) =>
  tables.map((t) => `SELECT ${t}.product_id FROM ${t} WHERE ${t}.kind = 'DESCRIPTIONSHORT'`).join(' UNION ');

/**
 * Each touched product's fallback key and languages again (as 0012 computes them), written only
 * where they changed: most updates of a short text are not of a product's first one.
 */
const refresh = (tables: readonly string[]) => `UPDATE product_fallback_key fk
    SET name_key = x.name_key, langs = x.langs
    FROM (SELECT ids.product_id,
        COALESCE((SELECT t.name_key FROM product_text t WHERE t.product_id = ids.product_id
          AND t.kind = 'DESCRIPTIONSHORT' ORDER BY t.lang LIMIT 1), '') AS name_key,
        COALESCE((SELECT ',' || string_agg(t.lang, ',' ORDER BY t.lang) || ',' FROM product_text t
          WHERE t.product_id = ids.product_id AND t.kind = 'DESCRIPTIONSHORT'), '') AS langs
      FROM (${touched(tables)}) ids) x
    WHERE fk.product_id = x.product_id AND (fk.name_key, fk.langs) IS DISTINCT FROM (x.name_key, x.langs)`;

/**
 * PostgreSQL kept product_fallback_key by a row trigger on every updated or deleted text
 * (migration 0012), which ran its refresh twice for an update (for the old row and the new), each
 * an UPDATE of the product's key row when the text was its first: 160–190 µs a row, 7.9–9.7 s of
 * a mass edit's 8.7–13 s setting the German short text of 50,000 products (EXPLAIN ANALYZE on the
 * bench catalogue, loaded machine). Per statement from the transition tables instead, as inserts
 * already were (0012): each touched product once, and its row written only when its key or
 * languages changed. A statement trigger names no columns, so an update of long texts fires it
 * and finds no short text among its rows. Relies on the writers' product row locks as before.
 */
const postgres: Migration = {
  async up(db) {
    const statements = [
      `DROP TRIGGER product_fallback_key_sync ON product_text`,
      `DROP FUNCTION product_fallback_key_sync()`,
      ...statementTrigger(
        'product_fallback_key_changed',
        'UPDATE',
        'product_text',
        refresh(['before', 'changed']),
      ),
      ...statementTrigger('product_fallback_key_gone', 'DELETE', 'product_text', refresh(['before'])),
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // SQLite's row triggers (0012) update the key only for a product's first text, in the
    // writer's own process: no second round trip, no second refresh.
  },
};

export const fallbackKeyStatements: WorkspaceStep = { sqlite, postgres };
