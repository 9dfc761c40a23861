import { sql, type Migration } from 'kysely';
import { FEATURE_VALUE_KEY_LENGTH } from '../feature-value-key.js';
import type { WorkspaceStep } from './workspace-steps.js';

const KEY = String(FEATURE_VALUE_KEY_LENGTH);

/**
 * PostgreSQL: the keys of inserted product_feature rows are written once per statement, from its
 * transition table, instead of by a PL/pgSQL call per row. Bulk writes insert a thousand feature
 * rows in one statement (a mass edit's chunk, an import's batch, `bulk-load`); the call per row cost
 * about as much as the insert itself (EXPLAIN ANALYZE on the bench catalogue: 1,000 rows 93-119 ms
 * with the row trigger, 39-65 ms with this one). Updates and deletes keep the row trigger (0008,
 * 0016): a statement-level delete joins its transition table with feature_value_key, which the
 * planner turned into a scan of every key (0.55 s for a product's ten features). SQLite's triggers
 * run in-process and are cheap per row: nothing to do there. `pim db move` disables this trigger
 * while it copies (db/move/bare-load.ts), as the row trigger.
 */
const postgres: Migration = {
  async up(db) {
    const statements = [
      `CREATE FUNCTION feature_value_key_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO feature_value_key (feature_id, value_key, product_id, occurrence)
      SELECT DISTINCT n.feature_id, left(e ->> 'value', ${KEY}), n.product_id, n.occurrence
      FROM inserted_rows n CROSS JOIN LATERAL json_array_elements(n.values_json) e
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$`,
      `DROP TRIGGER feature_value_key_sync ON product_feature`,
      `CREATE TRIGGER feature_value_key_sync AFTER DELETE OR UPDATE OF feature_id, occurrence, values_json
    ON product_feature FOR EACH ROW EXECUTE FUNCTION feature_value_key_sync()`,
      `CREATE TRIGGER feature_value_key_inserted AFTER INSERT ON product_feature
    REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION feature_value_key_add()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // In-process row triggers: no call across a language boundary per row.
  },
};

export const featureValueKeyInsert: WorkspaceStep = { sqlite, postgres };
