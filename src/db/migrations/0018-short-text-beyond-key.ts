import { sql, type Migration } from 'kysely';
import { NAME_KEY_LENGTH } from '../catalogue/name-key.js';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * A search of one or two characters on PostgreSQL (trigrams need three) read every text row,
 * long texts included, through `ILIKE` (about 0.3 s a statement on 100,000 products). It now reads
 * the short texts' name keys in product_short_text_name instead (an index-only scan of a fifth of
 * the table; docs/catalogue-grid.md), which hold a short text whole unless it is longer than
 * NAME_KEY_LENGTH characters: this index finds those few, so that their whole value is searched
 * too. SQLite's scan already reads only the short texts.
 */
const postgres: Migration = {
  async up(db) {
    await sql
      .raw(
        `CREATE INDEX product_short_text_beyond_key ON product_text (product_id)
          WHERE kind = 'DESCRIPTIONSHORT' AND char_length(value) > ${NAME_KEY_LENGTH}`,
      )
      .execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // SQLite's scan seeks each product's short texts by the primary key and never reads a long one.
  },
};

export const shortTextBeyondKey: WorkspaceStep = { sqlite, postgres };
