import type { Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  migratePostgres,
  openPostgres,
  type LegacyMigrationNames,
  type PostgresHandle,
} from '../../src/db/postgres.js';
import {
  systemLegacyNamesPostgres,
  systemMigrationsPostgres,
} from '../../src/db/system.migrations.postgres.js';
import {
  workspaceLegacyNamesPostgres,
  workspaceMigrationsPostgres,
} from '../../src/db/workspace.migrations.postgres.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';

/**
 * PostgreSQL schemas written before both dialects listed the same migration names recorded
 * PostgreSQL's own names. Opened now, they read as having run today's names (the renames of
 * legacyNames), are migrated to the latest, and end as a new schema does.
 */

const W = workspaceMigrationsPostgres;
const S = systemMigrationsPostgres;

/** The lists as earlier versions named them, in their order (today's steps under the old names). */
const OLD_WORKSPACE: Array<[string, Migration]> = [
  ['0001_catalogue', W['0001_catalogue']!],
  ['0002_product_deletion', W['0003_product_deletion']!],
  ['0003_change_counter', W['0004_change_counter']!],
  ['0004_change_stamp', W['0006_change_stamp']!],
  ['0005_feature_values_json', W['0007_feature_values_json']!],
];
const OLD_SYSTEM: Array<[string, Migration]> = [
  ['0001_shared_system', S['0001_initial']!],
  ['0002_session_generation', S['0004_session_generation']!],
];

const CASES = [
  { db: 'workspace', old: OLD_WORKSPACE, migrations: W, legacyNames: workspaceLegacyNamesPostgres },
  { db: 'system', old: OLD_SYSTEM, migrations: S, legacyNames: systemLegacyNamesPostgres },
];

describe.runIf(TEST_BACKEND === 'postgres')('migration names recorded by earlier versions', () => {
  let database: { name: string; url: string };
  const handles: PostgresHandle<unknown>[] = [];
  const open = (schema: string) => {
    const handle = openPostgres<unknown>(database.url, schema, { max: 2 });
    handles.push(handle);
    return handle;
  };
  const query = async <R>(handle: PostgresHandle<unknown>, text: string, values: unknown[] = []) =>
    (await handle.pool.query(text, values)).rows as R[];
  /** The recorded migrations in the order Kysely reads them (timestamp, then name). */
  const recorded = (handle: PostgresHandle<unknown>) =>
    query<{ name: string; timestamp: string }>(handle, 'SELECT name, "timestamp" FROM kysely_migration').then(
      (rows) =>
        rows.sort(
          (a, b) =>
            new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime() || a.name.localeCompare(b.name),
        ),
    );
  /** Tables, columns, constraints, indexes, triggers and functions of a schema, without its name. */
  const shape = async (handle: PostgresHandle<unknown>) => {
    const schema = [handle.schema];
    const strip = (rows: unknown[]) => JSON.parse(JSON.stringify(rows).replaceAll(`${handle.schema}.`, ''));
    return strip([
      ...(await query(
        handle,
        `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, collation_name
         FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1, 3`,
        schema,
      )),
      ...(await query(
        handle,
        `SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) AS def
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 ORDER BY 1, 2`,
        schema,
      )),
      ...(await query(
        handle,
        'SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1, 2',
        schema,
      )),
      ...(await query(
        handle,
        `SELECT t.tgname, pg_get_triggerdef(t.oid) AS def
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY 1`,
        schema,
      )),
      ...(await query(
        handle,
        `SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = $1 ORDER BY 1`,
        schema,
      )),
    ]);
  };

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.close()));
    await dropTestDatabase(database.name);
  });

  for (const { db, old, migrations, legacyNames } of CASES) {
    it(`are renamed to today's for a ${db} schema at every earlier version, once`, async () => {
      const fresh = open(`fresh_${db}`);
      await migratePostgres(fresh, migrations, legacyNames);
      const names = Object.keys(migrations);
      expect((await recorded(fresh)).map((r) => r.name)).toEqual(names);
      const latest = await shape(fresh);
      expect(latest.length).toBeGreaterThan(20);

      for (let n = 1; n <= old.length; n++) {
        const handle = open(`old_${db}_${n}`);
        // Each step in a run of its own (an installation upgraded over time), or all at once.
        if (n === old.length) await migratePostgres(handle, Object.fromEntries(old));
        else for (let k = 1; k <= n; k++) await migratePostgres(handle, Object.fromEntries(old.slice(0, k)));
        expect((await recorded(handle)).map((r) => r.name)).toEqual(old.slice(0, n).map(([name]) => name));

        await migratePostgres(handle, migrations, legacyNames);

        const after = await recorded(handle);
        expect(after.map((r) => r.name)).toEqual(names);
        expect(await shape(handle)).toEqual(latest);

        await migratePostgres(handle, migrations, legacyNames);
        expect(await recorded(handle)).toEqual(after);
      }
    });
  }

  it('leave a schema on today’s names as it is', async () => {
    const handle = open('current');
    await migratePostgres(handle, workspaceMigrationsPostgres);
    const before = await recorded(handle);
    await migratePostgres(handle, workspaceMigrationsPostgres, workspaceLegacyNamesPostgres);
    expect(await recorded(handle)).toEqual(before);
  });

  it('are refused when they do not fit the list', async () => {
    const handle = open('misfit');
    const misfits: LegacyMigrationNames[] = [
      { '0001_catalogue': ['0001_catalogue'] },
      { '0002_product_deletion': ['0003_product_deletion_typo'] },
      {
        '0002_product_deletion': ['0003_product_deletion'],
        '0003_change_counter': ['0003_product_deletion'],
      },
    ];
    for (const legacyNames of misfits) {
      await expect(migratePostgres(handle, workspaceMigrationsPostgres, legacyNames)).rejects.toThrow(
        'legacy migration names do not fit the migrations',
      );
    }
    expect(await query(handle, `SELECT 1 FROM pg_namespace WHERE nspname = 'misfit'`)).toEqual([]);
  });
});
