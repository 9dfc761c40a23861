import { sql, type Migration } from 'kysely';
import { trigramOpclass } from './0010-grid-indexes.postgres.js';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * pg_trgm's GIN operator class answers `=` too (PostgreSQL 14 on), and the planner prices it far
 * below its cost whenever the statistics are stale (a young workspace, or one an import is
 * filling): an import's lookup of a batch's 500 supplierPids (`supplier_pid IN (…)`) then read the
 * trigram index instead of the unique btree, each key the posting lists its trigrams share with
 * every other supplierPid, so every batch took seconds and the import slowed as it grew (2.4-4.5 s
 * a batch of 500 in a workspace of 4,000 products, against a millisecond through the btree). A
 * partial index is used only by a query that implies its predicate: `=` never does, the search
 * (product-sql.postgres.ts) states it. No supplierPid is empty and no search matches one.
 */
const postgres: Migration = {
  async up(db) {
    const opclass = await trigramOpclass(db);
    await sql`DROP INDEX product_supplier_pid_trgm`.execute(db);
    await sql`CREATE INDEX product_supplier_pid_trgm ON product USING gin (supplier_pid ${opclass})
      WHERE supplier_pid <> ''`.execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // SQLite's FTS5 table is its own; lookups by supplierPid use the unique index.
  },
};

export const supplierPidTrigramPartial: WorkspaceStep = { sqlite, postgres };
