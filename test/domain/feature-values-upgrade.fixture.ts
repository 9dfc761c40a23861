/**
 * One catalogue written before feature values and names moved into their rows (SQLite's 0007,
 * PostgreSQL's 0005), and what the migration must make of it: the upgrade tests of both
 * dialects (workspace-upgrade.test.ts, feature-values-upgrade.test.ts) write and expect these.
 */

/** Long, with characters JSON escapes: a backslash, a line break, a tab, a control character. */
export const LONG = 'ä\\\n\t\u0001'.repeat(50_000);

/** Statements both dialects run as they are, before the values. */
export const SEED_STATEMENTS = [
  `INSERT INTO product (id, supplier_pid, created_at, updated_at) VALUES
    (1, 'A', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'),
    (2, 'B', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  `INSERT INTO feature_def (id, ftidref, default_unit) VALUES (1, 'F1', 'mm'), (2, 'F2', NULL)`,
  `INSERT INTO feature_def_name VALUES (1, 'fra', 'Longueur'), (1, 'deu', 'Länge "L"')`,
  `INSERT INTO product_feature (product_id, feature_id, funit, position) VALUES
    (1, 1, 'cm', 2), (1, 2, NULL, 1), (2, 1, NULL, 1)`,
];

/** Rows of product_feature_value: product, feature, language, value (not in language order). */
export const SEED_VALUES: readonly (readonly [number, number, string, string])[] = [
  [1, 1, 'eng', '12.5'],
  [1, 1, 'deu', '12,5'],
  [1, 2, 'zxx', LONG],
];

/** product_feature after the migration, ordered by product and feature. */
export const EXPECTED_FEATURES = [
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
];

/** feature_def's names after the migration, ordered by id. */
export const EXPECTED_NAMES = [
  {
    id: 1,
    names_json: JSON.stringify([
      { lang: 'deu', value: 'Länge "L"' },
      { lang: 'fra', value: 'Longueur' },
    ]),
  },
  { id: 2, names_json: '[]' },
];
