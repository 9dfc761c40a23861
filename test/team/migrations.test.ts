import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStores } from '../../src/app/system-store.js';
import { migratePostgres, openPostgres } from '../../src/db/postgres.js';
import { systemMigrationsPostgres } from '../../src/db/system.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * Several instances starting at the same moment on an empty shared database: the migrations
 * run once, under the advisory lock, and every instance starts.
 */
describe.runIf(TEST_BACKEND === 'postgres')('migrations of a shared database', () => {
  let database: { name: string; url: string };
  const dirs: string[] = [];
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    await dropTestDatabase(database.name);
  });

  it('are applied once when eight instances start at once', async () => {
    const starts = Array.from({ length: 8 }, () => {
      const dir = mkdtempSync(join(tmpdir(), 'pim-migrate-'));
      dirs.push(dir);
      return openStores(dir, { kind: 'postgres', url: database.url });
    });
    const stores = await Promise.all(starts);
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const applied = await client.query<{ name: string }>(
          'SELECT name FROM pim.kysely_migration ORDER BY name',
        );
        expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(systemMigrationsPostgres).sort());
        const tables = await client.query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'pim' ORDER BY table_name",
        );
        expect(tables.rows.map((r) => r.table_name)).toEqual([
          'job',
          'kysely_migration',
          'kysely_migration_lock',
          'session',
          'user',
          'user_preference',
          'workspace',
        ]);
      } finally {
        await client.end();
      }
      // Each of them works on the one schema.
      await stores[0]!.shared
        .insertInto('workspace')
        .values({ name: 'W', rootpath: '/tmp/w', created_at: 'x', db_schema: null })
        .execute();
      for (const s of stores)
        expect(await s.shared.selectFrom('workspace').select('name').execute()).toEqual([{ name: 'W' }]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('may take longer than a request’s statement (a migration over a large catalogue)', async () => {
    const handle = openPostgres<unknown>(database.url, 'slow_migration', { queryTimeoutMs: 300 });
    try {
      await migratePostgres(handle, {
        '0001_slow': {
          async up(db) {
            await sql`SELECT pg_sleep(0.8)`.execute(db);
            await sql`CREATE TABLE t (id integer)`.execute(db);
          },
        },
      });
      // The handle's own connections keep the requests' short timeout.
      await expect(sql`SELECT pg_sleep(0.8)`.execute(handle.db)).rejects.toThrow('Query read timeout');
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(handle.db)).rows).toEqual([
        { n: 0 },
      ]);
    } finally {
      await handle.close();
    }
  });
});
