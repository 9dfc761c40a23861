import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres, openPostgres, type PostgresHandle } from '../../src/db/postgres.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../../src/db/workspace.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * What PostgreSQL's grid reads index-only needs of a workspace schema (migrations 0018 and 0019,
 * docs/catalogue-grid.md): the short texts longer than their name key indexed apart, and the
 * walked tables vacuumed after 1 % of their rows changed, not the default fifth.
 */
describe.runIf(TEST_BACKEND === 'postgres')('a PostgreSQL workspace schema for the grid', () => {
  let database: { name: string; url: string };
  let handle: PostgresHandle<unknown>;
  const query = async <R>(text: string, values: unknown[] = []) =>
    (await handle.pool.query(text, values)).rows as R[];

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openPostgres<unknown>(database.url, 'grid_upkeep', { max: 2 });
    await migratePostgres(handle, workspaceMigrationsPostgres, workspaceLegacyNamesPostgres);
  });
  afterAll(async () => {
    await handle?.close();
    if (database) await dropTestDatabase(database.name);
  });

  it('vacuums and analyses the tables walked index-only after 1 % of changes', async () => {
    const rows = await query<{ relname: string; reloptions: string[] | null }>(
      `SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname IN ('product_text', 'product_fallback_key', 'product')
       ORDER BY 1`,
      [handle.schema],
    );
    const expected = [
      'autovacuum_vacuum_scale_factor=0.01',
      'autovacuum_vacuum_insert_scale_factor=0.01',
      'autovacuum_analyze_scale_factor=0.01',
    ];
    expect(rows).toEqual([
      { relname: 'product', reloptions: null },
      { relname: 'product_fallback_key', reloptions: expected },
      { relname: 'product_text', reloptions: expected },
    ]);
  });

  it('indexes the short texts longer than their name key', async () => {
    const [index] = await query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'product_short_text_beyond_key'`,
      [handle.schema],
    );
    expect(index?.indexdef).toMatch(
      /\(product_id\) WHERE \(\(kind = 'DESCRIPTIONSHORT'::text\) AND \(char_length\(value\) > 200\)\)/,
    );
  });
});
