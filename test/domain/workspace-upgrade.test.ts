import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openSqlite, type SqliteHandle } from '../../src/db/sqlite.js';
import { workspaceMigrations } from '../../src/db/workspace.migrations.js';
import { removeDir, tempDir } from '../helpers/temp.js';
import {
  EXPECTED_FEATURES,
  EXPECTED_NAMES,
  SEED_STATEMENTS,
  SEED_VALUES,
} from './feature-values-upgrade.fixture.js';

/**
 * A workspace file written by an earlier version is brought up to date when it is opened: here
 * the move of feature values into a table keyed by (product, feature, language), 0005, and
 * their move into their feature's row as JSON, 0007 (PostgreSQL's twin: feature-values-upgrade.test.ts).
 */
const migrationsBefore = (next: string) =>
  Object.fromEntries(Object.entries(workspaceMigrations).filter(([name]) => name < next));
const BEFORE_0005 = migrationsBefore('0005');

let dir: string | undefined;
let handle: SqliteHandle<unknown> | undefined;
afterEach(async () => {
  await handle?.close();
  removeDir(dir);
});

interface ValueRow {
  product_id: number;
  feature_id: number;
  lang: string;
  value: string;
}

describe('upgrading a workspace file', () => {
  it('keeps every feature value across 0005, and the keyed table behaves as the old one did', async () => {
    dir = tempDir();
    handle = openSqlite(join(dir, 'workspace.sqlite'));
    const raw = handle.raw;
    await migrate(handle, BEFORE_0005);
    raw.exec(`INSERT INTO product (id, supplier_pid, created_at, updated_at) VALUES
      (1, 'A', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
      (2, 'B', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
    raw.exec(`INSERT INTO feature_def (id, ftidref) VALUES (1, 'F1'), (2, 'F2')`);
    raw.exec(`INSERT INTO product_feature (product_id, feature_id, funit, position) VALUES
      (1, 1, 'mm', 1), (1, 2, NULL, 2), (2, 1, NULL, 1)`);
    const long = 'ä'.repeat(100_000);
    const insert = raw.prepare('INSERT INTO product_feature_value VALUES (?, ?, ?, ?)');
    const before: ValueRow[] = [
      { product_id: 1, feature_id: 1, lang: 'deu', value: '12,5' },
      { product_id: 1, feature_id: 1, lang: 'eng', value: '12.5' },
      { product_id: 1, feature_id: 2, lang: 'zxx', value: long },
      { product_id: 2, feature_id: 1, lang: 'fra', value: 'rouge' },
    ];
    for (const row of before) insert.run(row.product_id, row.feature_id, row.lang, row.value);

    await migrate(handle, migrationsBefore('0007'));

    const all = () =>
      raw
        .prepare('SELECT product_id, feature_id, lang, value FROM product_feature_value ORDER BY 1, 2, 3')
        .all() as ValueRow[];
    expect(all()).toEqual(before);
    const table = raw
      .prepare(`SELECT sql FROM sqlite_master WHERE name = 'product_feature_value'`)
      .pluck()
      .get() as string;
    expect(table).toMatch(/WITHOUT ROWID$/);
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);

    // One value per (product, feature, language); a value needs its product's feature; values go with it.
    expect(() => insert.run(1, 1, 'deu', 'again')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => insert.run(2, 2, 'deu', 'no such feature of product 2')).toThrow(/FOREIGN KEY/);
    raw.exec('DELETE FROM product_feature WHERE product_id = 1 AND feature_id = 1');
    expect(all().map((row) => [row.product_id, row.feature_id, row.lang])).toEqual([
      [1, 2, 'zxx'],
      [2, 1, 'fra'],
    ]);
    raw.exec('DELETE FROM product WHERE id = 2');
    expect(all().map((row) => [row.product_id, row.feature_id, row.lang])).toEqual([[1, 2, 'zxx']]);
  });
});

describe('upgrading a workspace file across 0007', () => {
  it('keeps every feature value and name, as JSON lists by language in their rows', async () => {
    dir = tempDir();
    handle = openSqlite(join(dir, 'workspace.sqlite'));
    const raw = handle.raw;
    await migrate(handle, migrationsBefore('0007'));
    for (const statement of SEED_STATEMENTS) raw.exec(statement);
    const insert = raw.prepare('INSERT INTO product_feature_value VALUES (?, ?, ?, ?)');
    for (const row of SEED_VALUES) insert.run(...row);

    await migrate(handle, workspaceMigrations);

    const features = raw
      .prepare(
        'SELECT product_id, feature_id, funit, position, values_json FROM product_feature ORDER BY 1, 2',
      )
      .all();
    expect(features).toEqual(EXPECTED_FEATURES);
    expect(raw.prepare('SELECT id, names_json FROM feature_def ORDER BY id').all()).toEqual(EXPECTED_NAMES);
    const tables = raw
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).not.toContain('product_feature_value');
    expect(tables).not.toContain('feature_def_name');
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    // The feature's keys and cascades are as before.
    const add = raw.prepare(
      'INSERT INTO product_feature (product_id, feature_id, position) VALUES (?, ?, 9)',
    );
    expect(() => add.run(1, 1)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => add.run(3, 1)).toThrow(/FOREIGN KEY/);
    expect(() => raw.exec('DELETE FROM feature_def WHERE id = 2')).toThrow(/FOREIGN KEY/);
    raw.exec('DELETE FROM product WHERE id = 1');
    expect(raw.prepare('SELECT product_id FROM product_feature').pluck().all()).toEqual([2]);
  });
});
