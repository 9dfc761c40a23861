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

const AT = '2026-01-01T00:00:00.000Z';

/**
 * A workspace as the release before 0008 (0007_feature_values_json) left it, table by table in
 * the order of their foreign keys (product-model-upgrade.test.ts, on either dialect): the
 * feature rows above (several languages, zxx, a long value, units of the product and of the
 * definition), groups with names in two languages, products in a group, in none, and a variant.
 */
export const BEFORE_0008_ROWS = {
  product_group: [
    { id: 1, parent_id: null, bmecat_id: '1', next_child_seq: 2, created_at: AT, updated_at: AT },
    { id: 2, parent_id: 1, bmecat_id: '1.1', next_child_seq: 1, created_at: AT, updated_at: AT },
    { id: 3, parent_id: null, bmecat_id: '2', next_child_seq: 1, created_at: AT, updated_at: AT },
  ],
  product_group_name: [
    { group_id: 1, lang: 'deu', name: 'Werkzeug' },
    { group_id: 1, lang: 'eng', name: 'Tools' },
    { group_id: 2, lang: 'deu', name: 'Zangen' },
    { group_id: 3, lang: 'eng', name: 'Empty' },
  ],
  product: [
    {
      id: 1,
      supplier_pid: 'A',
      supplier_id_ref: null,
      ean: '4006381333115',
      manufacturer_pid: 'M-A',
      master_id: null,
      group_id: 2,
      created_at: AT,
      updated_at: AT,
    },
    { id: 2, supplier_pid: 'B', master_id: null, group_id: 1, created_at: AT, updated_at: AT },
    { id: 3, supplier_pid: 'C', master_id: null, group_id: null, created_at: AT, updated_at: AT },
    { id: 4, supplier_pid: 'A-1', master_id: 1, group_id: null, created_at: AT, updated_at: AT },
  ],
  product_text: [
    { product_id: 1, kind: 'DESCRIPTIONSHORT', lang: 'deu', value: 'Zange' },
    { product_id: 1, kind: 'DESCRIPTIONSHORT', lang: 'eng', value: 'Pliers' },
    { product_id: 1, kind: 'DESCRIPTIONLONG', lang: 'deu', value: '<p>Eine Zange</p>' },
    { product_id: 2, kind: 'DESCRIPTIONSHORT', lang: 'deu', value: 'Werkzeugkasten' },
    { product_id: 4, kind: 'DESCRIPTIONSHORT', lang: 'deu', value: 'Zange klein' },
  ],
  feature_def: [
    { id: 1, ftidref: 'F1', default_unit: 'mm', names_json: EXPECTED_NAMES[0]!.names_json },
    { id: 2, ftidref: 'F2', default_unit: null, names_json: EXPECTED_NAMES[1]!.names_json },
    {
      id: 3,
      ftidref: '0173-1#02-AAF040#004',
      default_unit: null,
      names_json: JSON.stringify([{ lang: 'eng', value: 'Colour' }]),
    },
  ],
  product_feature: [
    ...EXPECTED_FEATURES,
    {
      product_id: 3,
      feature_id: 3,
      funit: null,
      position: 1,
      values_json: JSON.stringify([
        { lang: 'deu', value: 'rot' },
        { lang: 'eng', value: 'red' },
        { lang: 'zxx', value: 'RAL 3000' },
      ]),
    },
    { product_id: 3, feature_id: 1, funit: null, position: 2, values_json: '[{"lang":"zxx","value":"7"}]' },
    { product_id: 4, feature_id: 1, funit: 'm', position: 1, values_json: '[{"lang":"zxx","value":"0.1"}]' },
  ],
} as const;

/** The meta rows and change counter of that workspace beside insertInitialMeta's: groups 1 and 2 given. */
export const BEFORE_0008_META = { next_root_group_seq: '3', change_value: 12, change_stamp: AT };
