import { sql, type Migration } from 'kysely';
import type { WorkspaceStep } from './workspace-steps.js';

/**
 * The languages of each feature's first occurrences (a spreadsheet export's default columns,
 * docs/spreadsheets.md) were a scan of every value's JSON at the first export after a change: 2-5 s
 * for the benchmark's million occurrences, on SQLite holding every other request meanwhile. Table
 * feature_language keeps the (feature, language) pairs the writes have used, by triggers on every
 * write path as feature_value_key is kept; the read checks each pair with one indexed EXISTS
 * (CatalogueSql.featureLanguages), which ends at the first value found.
 *
 * Only added to, never removed from: a row is a pair that may be in use. Counting uses instead
 * would make a pair's row a lock every writer of that feature and language takes (on PostgreSQL
 * held to commit: an import's transaction would hold single edits of its features, and two bulk
 * writes could deadlock on their order), and a delete trigger per row for what the read's EXISTS
 * settles anyway. The pairs are bounded by features × languages.
 */
const postgres: Migration = {
  async up(db) {
    const statements = [
      `CREATE TABLE feature_language (
        feature_id integer NOT NULL REFERENCES feature_def(id) ON DELETE CASCADE,
        lang text COLLATE "C" NOT NULL,
        PRIMARY KEY (feature_id, lang)
      )`,
      // Once per statement from its transition table, as feature_value_key_add (0017): bulk writes
      // touch a thousand rows in one statement. An existing pair costs an index probe and no lock.
      `CREATE FUNCTION feature_language_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO feature_language (feature_id, lang)
      SELECT DISTINCT n.feature_id, e ->> 'lang'
      FROM written_rows n CROSS JOIN LATERAL json_array_elements(n.values_json) e
      WHERE n.occurrence = 1 AND e ->> 'lang' IS NOT NULL
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$`,
      // A trigger with a transition table takes one event and no column list: two triggers.
      `CREATE TRIGGER feature_language_inserted AFTER INSERT ON product_feature
    REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT EXECUTE FUNCTION feature_language_add()`,
      `CREATE TRIGGER feature_language_updated AFTER UPDATE ON product_feature
    REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT EXECUTE FUNCTION feature_language_add()`,
      `INSERT INTO feature_language (feature_id, lang)
      SELECT DISTINCT pf.feature_id, e ->> 'lang'
      FROM product_feature pf CROSS JOIN LATERAL json_array_elements(pf.values_json) e
      WHERE pf.occurrence = 1 AND e ->> 'lang' IS NOT NULL`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

// NOT EXISTS, not OR IGNORE: in a trigger, the conflict policy of the statement that fired it wins
// (an upsert's into product_feature made this insert fail on a pair already there).
const add = (row: 'NEW') => `INSERT INTO feature_language (feature_id, lang)
    SELECT DISTINCT ${row}.feature_id, j.value ->> 'lang' FROM json_each(${row}.values_json) j
    WHERE j.value ->> 'lang' IS NOT NULL AND NOT EXISTS (SELECT 1 FROM feature_language l
      WHERE l.feature_id = ${row}.feature_id AND l.lang = j.value ->> 'lang')`;

const sqlite: Migration = {
  async up(db) {
    const statements = [
      `CREATE TABLE feature_language (
        feature_id INTEGER NOT NULL REFERENCES feature_def(id) ON DELETE CASCADE,
        lang TEXT NOT NULL,
        PRIMARY KEY (feature_id, lang)
      ) WITHOUT ROWID`,
      `CREATE TRIGGER feature_language_insert AFTER INSERT ON product_feature WHEN NEW.occurrence = 1
    BEGIN ${add('NEW')}; END`,
      `CREATE TRIGGER feature_language_update AFTER UPDATE OF feature_id, occurrence, values_json ON product_feature
    WHEN NEW.occurrence = 1 BEGIN ${add('NEW')}; END`,
      `INSERT OR IGNORE INTO feature_language (feature_id, lang)
      SELECT DISTINCT pf.feature_id, j.value ->> 'lang' FROM product_feature pf, json_each(pf.values_json) j
      WHERE pf.occurrence = 1 AND j.value ->> 'lang' IS NOT NULL`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

export const featureLanguage: WorkspaceStep = { sqlite, postgres };
