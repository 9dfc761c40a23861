import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres, openPostgres, type PostgresHandle } from '../../src/db/postgres.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../../src/db/workspace.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * What PostgreSQL's grid and search need of a workspace schema (migrations 0019-0022,
 * docs/catalogue-grid.md): a search string per product for terms under three characters, the walked
 * tables vacuumed after 1 % of their rows changed, not the default fifth, and a trigram index on
 * supplierPids that lookups by `=` cannot pick.
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

  it("keeps a search string per product for the short search, without 0018's index", async () => {
    // Migration 0022: the supplierPid and the short texts by language, ASCII folded, U+0001 between.
    const client = await handle.pool.connect();
    try {
      await client.query(`SET search_path TO ${handle.schema}`);
      const [{ id }] = (
        await client.query<{ id: number }>(`INSERT INTO product (supplier_pid, created_at, updated_at)
          VALUES ('Search-Ä1', '2026-01-01', '2026-01-01') RETURNING id`)
      ).rows as [{ id: number }];
      await client.query(
        `INSERT INTO product_text (product_id, kind, lang, value) VALUES
          ($1, 'DESCRIPTIONSHORT', 'eng', 'Drill'), ($1, 'DESCRIPTIONSHORT', 'deu', 'BOHRER'),
          ($1, 'DESCRIPTIONLONG', 'deu', 'Lang')`,
        [id],
      );
      const strings = await client.query('SELECT text FROM product_search_string WHERE product_id = $1', [
        id,
      ]);
      expect(strings.rows).toEqual([{ text: 'search-Ä1\u0001bohrer\u0001drill' }]);
    } finally {
      client.release();
    }
    expect(
      await query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%beyond_key'`, [
        handle.schema,
      ]),
    ).toEqual([]);
  });

  it('keeps lookups of supplierPids by = on the unique btree while statistics are stale', async () => {
    // As an import into a young workspace sees it: rows added, never analysed.
    await query(`SET search_path TO ${handle.schema}`);
    await query(`INSERT INTO product (supplier_pid, created_at, updated_at)
      SELECT 'EDIT-' || g, '2026-01-01', '2026-01-01' FROM generate_series(1, 6000) g`);
    const pids = Array.from({ length: 500 }, (_, i) => `EDIT-${1001 + i}`);
    const client = await handle.pool.connect();
    try {
      await client.query(`SET search_path TO ${handle.schema}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM product WHERE supplier_pid IN (${pids.map((_, i) => `$${i + 1}`).join(',')})`,
        pids,
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).not.toContain('product_supplier_pid_trgm');
      // Usable by the search (the planner prefers reading a table this small).
      await client.query('SET enable_seqscan = off');
      const search = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM product WHERE supplier_pid <> '' AND supplier_pid COLLATE "C" ILIKE '%DIT-15%'`,
      );
      expect(search.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('product_supplier_pid_trgm');
    } finally {
      client.release();
    }
  });
});
