import { sql, type Migration } from 'kysely';
import { FEATURE_VALUE_KEY_LENGTH } from '../feature-value-key.js';
import type { WorkspaceStep } from './workspace-steps.js';

const KEY = String(FEATURE_VALUE_KEY_LENGTH);

/**
 * PostgreSQL's feature_value_key trigger (0008) removed a product_feature row's keys with
 * `value_key IN (SELECT … FROM json_array_elements(…))`: planned as a scan of every key of the
 * feature with the rest as a filter, so each delete or update of a feature row read the keys of
 * all products holding the feature (4.5 ms a row once 50,000 products held it: the undo of a mass
 * edit of 50,000 products took minutes). `= ANY(ARRAY(…))` evaluates the values once and looks
 * every key up on the whole primary key. SQLite already searches its primary key with all four
 * columns (EXPLAIN QUERY PLAN): nothing to do there.
 */
const postgres: Migration = {
  async up(db) {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION feature_value_key_sync() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      DELETE FROM feature_value_key k WHERE k.feature_id = OLD.feature_id AND k.product_id = OLD.product_id
        AND k.occurrence = OLD.occurrence
        AND k.value_key = ANY(ARRAY(SELECT left(e ->> 'value', ${KEY}) FROM json_array_elements(OLD.values_json) e));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO feature_value_key (feature_id, value_key, product_id, occurrence)
        SELECT DISTINCT NEW.feature_id, left(e ->> 'value', ${KEY}), NEW.product_id, NEW.occurrence
        FROM json_array_elements(NEW.values_json) e
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$`,
      )
      .execute(db);
  },
};

const sqlite: Migration = {
  async up() {
    // The SQLite trigger's delete already searches the primary key on all four columns.
  },
};

export const featureValueKeyDelete: WorkspaceStep = { sqlite, postgres };
