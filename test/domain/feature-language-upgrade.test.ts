import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  featureLanguagesPostgres,
  featureLanguagesSqlite,
} from '../../src/db/catalogue/feature-language-sql.js';
import { migratePostgres, openPostgres } from '../../src/db/postgres.js';
import { migrate, openSqlite } from '../../src/db/sqlite.js';
import { workspaceMigrations } from '../../src/db/workspace.migrations.js';
import { workspaceMigrationsPostgres } from '../../src/db/workspace.migrations.postgres.js';
import type { WorkspaceDatabase } from '../../src/db/workspace.schema.js';
import { createTestDatabase, dropTestDatabase, TEST_BACKEND } from '../helpers/backend.js';
import { removeDir, tempDir } from '../helpers/temp.js';

/**
 * 0021_feature_language on the test backend: a workspace written before it is given the
 * (feature, language) pairs of its first occurrences, and from then on every write path keeps
 * them, so that CatalogueSql.featureLanguages (feature-language-sql.ts) (a spreadsheet export's default columns) answers
 * exactly the languages in use without reading every value: a language added by an insert or an
 * update shows, one whose last value went (deleted, changed, or only in a later occurrence) does not.
 */
const before = <T>(migrations: Record<string, T>) =>
  Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0021'));

const AT = '2026-01-01T00:00:00.000Z';

interface Workspace {
  db: Kysely<WorkspaceDatabase>;
  close: () => Promise<void>;
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function workspaceAt(
  migrations: 'before' | 'all',
): Promise<{ open: Workspace; upgrade: () => Promise<void> }> {
  if (TEST_BACKEND === 'sqlite') {
    const dir = tempDir();
    const handle = openSqlite<WorkspaceDatabase>(join(dir, 'workspace.sqlite'));
    cleanup = async () => {
      await handle.close();
      removeDir(dir);
    };
    await migrate(handle, migrations === 'before' ? before(workspaceMigrations) : workspaceMigrations);
    return {
      open: { db: handle.db, close: () => handle.close() },
      upgrade: () => migrate(handle, workspaceMigrations),
    };
  }
  const database = await createTestDatabase();
  const handle = openPostgres<WorkspaceDatabase>(database.url, 'languages_ws', { max: 2 });
  cleanup = async () => {
    await handle.close();
    await dropTestDatabase(database.name);
  };
  const all = workspaceMigrationsPostgres;
  await migratePostgres(handle, migrations === 'before' ? before(all) : all);
  return {
    open: { db: handle.db, close: () => handle.close() },
    upgrade: () => migratePostgres(handle, all),
  };
}

const values = (...langs: string[]) => JSON.stringify(langs.map((lang) => ({ lang, value: `v-${lang}` })));

async function seed(db: Kysely<WorkspaceDatabase>): Promise<void> {
  await sql`INSERT INTO product (id, supplier_pid, created_at, updated_at)
    VALUES (1, 'A', ${AT}, ${AT}), (2, 'B', ${AT}, ${AT})`.execute(db);
  await sql`INSERT INTO feature_def (id, ftidref) VALUES (1, 'F1'), (2, 'F2'), (3, 'F3')`.execute(db);
  // F1: deu and eng in first occurrences; F2: fra in a first occurrence, ita only in a second one; F3: none.
  await sql`INSERT INTO product_feature (product_id, feature_id, occurrence, position, values_json) VALUES
    (1, 1, 1, 1, ${values('deu', 'eng')}), (2, 1, 1, 1, ${values('deu')}),
    (1, 2, 1, 2, ${values('fra')}), (1, 2, 2, 3, ${values('ita')}),
    (2, 3, 1, 2, '[]')`.execute(db);
}

async function languages(db: Kysely<WorkspaceDatabase>): Promise<string[]> {
  const read = TEST_BACKEND === 'sqlite' ? featureLanguagesSqlite : featureLanguagesPostgres;
  const rows = await read(db);
  return rows.map((r) => `${r.ftidref}:${r.lang}`).sort();
}

describe(`feature languages in use, kept by 0021_feature_language (${TEST_BACKEND})`, () => {
  it('are filled for a workspace written before 0021', async () => {
    const { open, upgrade } = await workspaceAt('before');
    await seed(open.db);
    await upgrade();
    expect(await languages(open.db)).toEqual(['F1:deu', 'F1:eng', 'F2:fra']);
  });

  it('follow inserts, updates and deletes of first occurrences', async () => {
    const { open } = await workspaceAt('all');
    const { db } = open;
    await seed(db);
    expect(await languages(db)).toEqual(['F1:deu', 'F1:eng', 'F2:fra']);

    // A new language by an insert, and by an update of a feature without values.
    await sql`INSERT INTO product_feature (product_id, feature_id, occurrence, position, values_json)
      VALUES (2, 2, 1, 3, ${values('spa')})`.execute(db);
    await sql`UPDATE product_feature SET values_json = ${values('nld')} WHERE product_id = 2 AND feature_id = 3`.execute(
      db,
    );
    expect(await languages(db)).toEqual(['F1:deu', 'F1:eng', 'F2:fra', 'F2:spa', 'F3:nld']);

    // The last eng value changed to another language, the last spa feature row deleted, the
    // product holding the only fra first occurrence deleted (its second occurrence's ita never counted).
    await sql`UPDATE product_feature SET values_json = ${values('deu')} WHERE product_id = 1 AND feature_id = 1`.execute(
      db,
    );
    await sql`DELETE FROM product_feature WHERE product_id = 2 AND feature_id = 2`.execute(db);
    expect(await languages(db)).toEqual(['F1:deu', 'F2:fra', 'F3:nld']);
    await sql`DELETE FROM product WHERE id = 1`.execute(db);
    expect(await languages(db)).toEqual(['F1:deu', 'F3:nld']);

    // A second occurrence that becomes the first shows its languages.
    await sql`INSERT INTO product (id, supplier_pid, created_at, updated_at) VALUES (3, 'C', ${AT}, ${AT})`.execute(
      db,
    );
    await sql`INSERT INTO product_feature (product_id, feature_id, occurrence, position, values_json)
      VALUES (3, 2, 2, 1, ${values('ita')})`.execute(db);
    expect(await languages(db)).toEqual(['F1:deu', 'F3:nld']);
    await sql`UPDATE product_feature SET occurrence = 1 WHERE product_id = 3 AND feature_id = 2`.execute(db);
    expect(await languages(db)).toEqual(['F1:deu', 'F2:ita', 'F3:nld']);
  });
});
