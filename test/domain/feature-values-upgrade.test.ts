import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratePostgres, openPostgres, type PostgresHandle } from '../../src/db/postgres.js';
import { workspaceMigrationsPostgres } from '../../src/db/workspace.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';
import {
  EXPECTED_FEATURES,
  EXPECTED_NAMES,
  SEED_STATEMENTS,
  SEED_VALUES,
} from './feature-values-upgrade.fixture.js';

/**
 * A team's workspace schema written by an earlier version is brought up to date when it is
 * opened: feature values and definition names move into their rows as JSON text (0007, as
 * SQLite's in workspace-upgrade.test.ts), byte for byte what JSON.stringify writes.
 */
const BEFORE_0007 = Object.fromEntries(
  Object.entries(workspaceMigrationsPostgres).filter(([name]) => name < '0007'),
);

describe.runIf(TEST_BACKEND === 'postgres')('upgrading a PostgreSQL workspace across 0007', () => {
  let database: { name: string; url: string };
  let handle: PostgresHandle<unknown> | undefined;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    await dropTestDatabase(database.name);
  });

  it('keeps every feature value and name, as JSON lists by language in their rows', async () => {
    handle = openPostgres<unknown>(database.url, 'upgrade_ws');
    const rows = async (text: string) => (await handle!.pool.query(text)).rows;
    await migratePostgres(handle, BEFORE_0007);
    const client = await handle.pool.connect();
    try {
      for (const statement of SEED_STATEMENTS) await client.query(statement);
      for (const row of SEED_VALUES) {
        await client.query('INSERT INTO product_feature_value VALUES ($1, $2, $3, $4)', [...row]);
      }
    } finally {
      client.release();
    }

    await migratePostgres(handle, workspaceMigrationsPostgres);

    const features = await rows(
      'SELECT product_id, feature_id, funit, position, values_json::text AS values_json FROM product_feature ORDER BY 1, 2',
    );
    expect(features).toEqual(EXPECTED_FEATURES);
    expect(await rows('SELECT id, names_json::text AS names_json FROM feature_def ORDER BY id')).toEqual(
      EXPECTED_NAMES,
    );
    const tables = await rows(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'upgrade_ws' ORDER BY 1`,
    );
    const tableNames = tables.map((r: { table_name: string }) => r.table_name);
    expect(tableNames).toContain('product_feature');
    expect(tableNames).not.toContain('product_feature_value');
    expect(tableNames).not.toContain('feature_def_name');
  });
});
