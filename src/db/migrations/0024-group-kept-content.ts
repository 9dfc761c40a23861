import { sql, type Migration } from 'kysely';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * What a BMEcat CATALOG_STRUCTURE holds beyond pim's model of a group (GROUP_DESCRIPTION,
 * GROUP_ORDER, MIME_INFO, USER_DEFINED_EXTENSIONS, KEYWORD, another namespace's elements): kept
 * verbatim, a JSON array of the elements' XML in the schema's order, so that an export writes them
 * back (docs/bmecat.md). NULL: nothing kept.
 */
const step = (type: string): Migration => ({
  async up(db) {
    await sql`ALTER TABLE product_group ADD COLUMN kept_xml ${sql.raw(type)}`.execute(db);
  },
});

export const groupKeptContent: WorkspaceStep = { sqlite: step('text'), postgres: step('text') };
