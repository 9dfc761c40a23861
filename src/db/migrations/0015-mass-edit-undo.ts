import { sql, type Migration } from 'kysely';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * What a mass edit needs to be undone (docs/mass-edits.md): `mass_edit`, one row per mass-edit job
 * of this workspace (the job itself lives in the system database, which a workspace does not move
 * with), and `mass_edit_undo`, each changed product's state before the edit and its revision right
 * after it, written in the transaction of the chunk that changed it. No foreign key to product: the
 * rows of deleted products are what their undo recreates.
 */
function step(integer: string, text: string): Migration {
  return {
    async up(db) {
      await sql`CREATE TABLE mass_edit (
        job_id ${sql.raw(integer)} PRIMARY KEY,
        action ${sql.raw(text)} NOT NULL,
        created_at ${sql.raw(text)} NOT NULL,
        undone_by ${sql.raw(integer)}
      )`.execute(db);
      await sql`CREATE TABLE mass_edit_undo (
        job_id ${sql.raw(integer)} NOT NULL REFERENCES mass_edit(job_id) ON DELETE CASCADE,
        product_id ${sql.raw(integer)} NOT NULL,
        revision_after ${sql.raw(integer)} NOT NULL,
        before_json ${sql.raw(text)} NOT NULL,
        PRIMARY KEY (job_id, product_id)
      )`.execute(db);
    },
  };
}

// PostgreSQL: text COLLATE "C" as every text column of a workspace (docs/recipes.md).
export const massEditUndo: WorkspaceStep = {
  sqlite: step('INTEGER', 'TEXT'),
  postgres: step('integer', 'text COLLATE "C"'),
};
