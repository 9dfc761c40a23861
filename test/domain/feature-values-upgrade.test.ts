import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratePostgres, openPostgres, type PostgresHandle } from '../../src/db/postgres.js';
import { workspaceMigrationsPostgres } from '../../src/db/workspace.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * A team's workspace schema written by an earlier version is brought up to date when it is
 * opened: feature values and definition names move into their rows as JSON text (0005,
 * PostgreSQL's twin of SQLite's 0007 in workspace-upgrade.test.ts), byte for byte what
 * JSON.stringify writes.
 */
const BEFORE_0005 = Object.fromEntries(
  Object.entries(workspaceMigrationsPostgres).filter(([name]) => name < '0005'),
);

/** Long, with characters JSON escapes: a backslash, a line break, a tab, a control character. */
const LONG = 'ä\\\n\t\u0001'.repeat(50_000);

describe.runIf(TEST_BACKEND === 'postgres')('upgrading a PostgreSQL workspace across 0005', () => {
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
    await migratePostgres(handle, BEFORE_0005);
    const client = await handle.pool.connect();
    try {
      await client.query(`INSERT INTO product (id, supplier_pid, created_at, updated_at) VALUES
        (1, 'A', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
        (2, 'B', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
      await client.query(
        `INSERT INTO feature_def (id, ftidref, default_unit) VALUES (1, 'F1', 'mm'), (2, 'F2', NULL)`,
      );
      await client.query(
        `INSERT INTO feature_def_name VALUES (1, 'fra', 'Longueur'), (1, 'deu', 'Länge "L"')`,
      );
      await client.query(`INSERT INTO product_feature (product_id, feature_id, funit, position) VALUES
        (1, 1, 'cm', 2), (1, 2, NULL, 1), (2, 1, NULL, 1)`);
      for (const [p, f, lang, value] of [
        [1, 1, 'eng', '12.5'],
        [1, 1, 'deu', '12,5'],
        [1, 2, 'zxx', LONG],
      ] as const) {
        await client.query('INSERT INTO product_feature_value VALUES ($1, $2, $3, $4)', [p, f, lang, value]);
      }
    } finally {
      client.release();
    }

    await migratePostgres(handle, workspaceMigrationsPostgres);

    const features = await rows(
      'SELECT product_id, feature_id, funit, position, values_json::text AS values_json FROM product_feature ORDER BY 1, 2',
    );
    expect(features).toEqual([
      {
        product_id: 1,
        feature_id: 1,
        funit: 'cm',
        position: 2,
        values_json: JSON.stringify([
          { lang: 'deu', value: '12,5' },
          { lang: 'eng', value: '12.5' },
        ]),
      },
      {
        product_id: 1,
        feature_id: 2,
        funit: null,
        position: 1,
        values_json: JSON.stringify([{ lang: 'zxx', value: LONG }]),
      },
      { product_id: 2, feature_id: 1, funit: null, position: 1, values_json: '[]' },
    ]);
    expect(await rows('SELECT id, names_json::text AS names_json FROM feature_def ORDER BY id')).toEqual([
      {
        id: 1,
        names_json: JSON.stringify([
          { lang: 'deu', value: 'Länge "L"' },
          { lang: 'fra', value: 'Longueur' },
        ]),
      },
      { id: 2, names_json: '[]' },
    ]);
    const tables = await rows(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'upgrade_ws' ORDER BY 1`,
    );
    const tableNames = tables.map((r: { table_name: string }) => r.table_name);
    expect(tableNames).toContain('product_feature');
    expect(tableNames).not.toContain('product_feature_value');
    expect(tableNames).not.toContain('feature_def_name');
  });
});
