import { sql, type Migration } from 'kysely';
import type { WorkspaceStep } from './workspace-steps.js';

/** The number of rows PostgreSQL's change counter is spread over (change-counter-sql.postgres.ts). */
export const CHANGE_COUNTER_SHARDS = 64;

/**
 * PostgreSQL's change counter becomes up to CHANGE_COUNTER_SHARDS rows, one per group of
 * connections, so that concurrent writers no longer queue on one row (issue 34; docs/storage.md,
 * "The change counter on PostgreSQL"). The table keeps its shape: only the check that allowed row
 * 1 alone widens. The rows are made by the first write through each of them, so that a workspace
 * moved from SQLite (its one row copied) and a new one work alike. SQLite has one writer at a
 * time and keeps its one row: nothing to do there.
 */
const postgres: Migration = {
  async up(db) {
    await sql`ALTER TABLE change_counter DROP CONSTRAINT IF EXISTS change_counter_id_check`.execute(db);
    await sql`ALTER TABLE change_counter ADD CONSTRAINT change_counter_id_check
      CHECK (id BETWEEN 1 AND ${sql.lit(CHANGE_COUNTER_SHARDS)})`.execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // One writer at a time: the single row serialises nothing that is not serialised already.
  },
};

export const changeCounterShards: WorkspaceStep = { sqlite, postgres };
