import { sql, type Migration } from 'kysely';
import type { WorkspaceStep } from './workspace-steps.js';

/** The tables whose indexes the grid reads index-only (docs/catalogue-grid.md). */
const INDEX_ONLY_TABLES = ['product_text', 'product_fallback_key'];

/**
 * PostgreSQL's sort by name and its short search walk product_short_text_name and
 * product_fallback_key_order index-only, which pays off only where VACUUM has marked the pages all
 * visible: until then each entry on a changed page visits the table (a jump by name right after
 * 10,000 names were deleted: 181–231 ms, 13–58 ms after VACUUM). Autovacuum comes by default only
 * once a fifth of a table changed, so the changes catalogue managers make (a few per cent at a
 * time) left those pages unmarked; at 1 % it follows them. Per table, so nothing else changes.
 */
const postgres: Migration = {
  async up(db) {
    for (const table of INDEX_ONLY_TABLES) {
      await sql`ALTER TABLE ${sql.id(table)} SET (autovacuum_vacuum_scale_factor = 0.01,
        autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01)`.execute(db);
    }
  },
};

const sqlite: Migration = {
  async up() {
    // SQLite has no visibility map: its covering indexes never visit the table.
  },
};

export const visibilityAutovacuum: WorkspaceStep = { sqlite, postgres };
