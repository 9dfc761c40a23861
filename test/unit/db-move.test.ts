import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checksumMismatch,
  GROUP_ROWS,
  keyOrder,
  RowDigest,
  type TableChecksum,
} from '../../src/db/move/table-checksum.js';
import { planTables, type TablePlan } from '../../src/db/move/table-plan.js';

/** The pieces of `pim db move` that decide what is copied and whether the copy is the same. */

function checksum(rows: unknown[][]): TableChecksum {
  const digest = new RowDigest();
  for (const row of rows) digest.add(row);
  return digest.result();
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => [i + 1, `name ${i}`, i % 3 === 0 ? null : 'x']);

describe('table checksum', () => {
  it('is the same for the same rows, whichever driver types they came in', () => {
    expect(checksum(rows(2500))).toEqual(checksum(rows(2500)));
    // SQLite's integers with safeIntegers, PostgreSQL's int8, booleans stored as 0/1.
    expect(checksum([[5n, true, 'a']])).toEqual(checksum([[5, 1, 'a']]));
    // An empty table: the hash of nothing.
    expect(checksum([])).toEqual({
      rows: 0,
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
  });

  it('differs for rows that differ in any way', () => {
    const base = checksum([
      [1, 'ab', 'c'],
      [2, null, ''],
    ]);
    const variants: unknown[][][] = [
      [
        [1, 'ab', 'c'],
        [2, '', ''], // null is not an empty text
      ],
      [
        [1, 'a', 'bc'], // the boundary between values moved
        [2, null, ''],
      ],
      [
        ['1', 'ab', 'c'], // a number turned into text
        [2, null, ''],
      ],
      [
        [2, null, ''], // the order of rows
        [1, 'ab', 'c'],
      ],
      [
        [1, 'ab', 'c'],
        [2, null, ' '],
      ],
    ];
    for (const changed of variants) expect(checksum(changed).sha256).not.toBe(base.sha256);
  });

  it('notices a row missing or added at a group boundary', () => {
    const full = checksum(rows(GROUP_ROWS));
    expect(checksum(rows(GROUP_ROWS - 1)).rows).toBe(GROUP_ROWS - 1);
    expect(checksum(rows(GROUP_ROWS + 1)).sha256).not.toBe(full.sha256);
    expect(checksumMismatch('product', full, checksum(rows(GROUP_ROWS + 1)))).toBe(
      `table product has ${GROUP_ROWS} rows in SQLite but ${GROUP_ROWS + 1} in PostgreSQL`,
    );
  });

  it('any single changed value changes the checksum (property)', () => {
    const value = fc.oneof(fc.integer(), fc.string(), fc.constant(null));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value), { minLength: 1, maxLength: 2500 }),
        fc.nat(),
        fc.nat(2),
        value,
        (table, rowIndex, column, replacement) => {
          const row = rowIndex % table.length;
          fc.pre(!Object.is(table[row]![column], replacement));
          const changed = table.map((r) => [...r]);
          changed[row]![column] = replacement;
          const mismatch = checksumMismatch('t', checksum(table), checksum(changed));
          expect(mismatch).toBe(
            'table t differs between SQLite and PostgreSQL (same ' +
              table.length +
              ' rows, different checksum)',
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads both sides in key order with text compared as bytes', () => {
    const table: TablePlan = {
      name: 'product_text',
      columns: [
        { name: 'product_id', type: 'integer' },
        { name: 'kind', type: 'text' },
        { name: 'value', type: 'text' },
      ],
      primaryKey: ['product_id', 'kind'],
      sequences: [],
      references: [],
    };
    expect(keyOrder(table, 'sqlite')).toBe('"product_id", "kind" COLLATE BINARY');
    expect(keyOrder(table, 'postgres')).toBe('"product_id", "kind" COLLATE "C"');
  });
});

describe('table plan', () => {
  const target = (name: string, columns: string[], references: string[] = []): [string, TablePlan] => [
    name,
    {
      name,
      columns: columns.map((c) => ({ name: c, type: 'text' })),
      primaryKey: [columns[0]!],
      sequences: [],
      references,
    },
  ];

  it('orders tables after those they reference', () => {
    const plan = planTables(
      'ws',
      new Map([
        ['a_value', ['id', 'feature_id']],
        ['feature', ['id']],
        ['z_group', ['id']],
      ]),
      new Map([
        target('a_value', ['id', 'feature_id'], ['feature', 'z_group']),
        target('feature', ['id']),
        target('z_group', ['id']),
      ]),
    );
    expect(plan.map((t) => t.name)).toEqual(['feature', 'z_group', 'a_value']);
  });

  it('refuses a table or column that one side lacks: nothing is left behind silently', () => {
    const source = new Map([
      ['product', ['id', 'name']],
      ['future_table', ['id']],
    ]);
    expect(() => planTables('ws', source, new Map([target('product', ['id', 'name'])]))).toThrow(
      'ws: table future_table has no counterpart in PostgreSQL',
    );
    expect(() =>
      planTables(
        'ws',
        new Map([['product', ['id', 'name', 'note']]]),
        new Map([target('product', ['id', 'name'])]),
      ),
    ).toThrow('ws: column product.note has no counterpart in PostgreSQL');
    expect(() =>
      planTables('ws', new Map([['product', ['id']]]), new Map([target('product', ['id', 'name'])])),
    ).toThrow('ws: column product.name is missing in SQLite');
    expect(() =>
      planTables(
        'ws',
        new Map([['product', ['id']]]),
        new Map([target('product', ['id']), target('extra', ['id'])]),
      ),
    ).toThrow('ws: table extra is missing in SQLite');
  });
});
