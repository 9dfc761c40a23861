import { describe, expect, it } from 'vitest';
import { PRODUCT_FIELDS } from '../../src/db/catalogue/product-fields.js';
import type {
  ProductColumnsPage,
  ProductColumnsRow,
} from '../../src/domain/products/product-columns.service.js';
import {
  parseColumnName,
  type SpreadsheetColumn,
} from '../../src/interchange/spreadsheet/spreadsheet-columns.js';
import { pageRows, rowLayout } from '../../src/interchange/spreadsheet/spreadsheet-rows.js';

/**
 * A page's rows put together from the reads' rows (spreadsheet-rows.ts): each product's texts from
 * its own row, its features walked beside it, the cells of one product never in another's row
 * although the row's array is reused, the first value of a language kept and the others counted.
 */
const column = (name: string) => parseColumnName(name) as SpreadsheetColumn;
const COLUMNS = [
  'id',
  'supplierPid',
  'masterSupplierPid',
  'groupId',
  'ean',
  'short[deu]',
  'long[eng]',
  'feature[F1].unit',
  'feature[F1][deu]',
  'feature[F1][eng]',
  'feature[F2][zxx]',
].map(column);

const product = (
  id: number | string,
  pid: string,
  master: string | null,
  group: number | null,
  ean: string | null,
  /** The columns' texts in their order: short[deu], long[eng]. */
  texts: (string | null)[] = [null, null],
) => {
  const fields = PRODUCT_FIELDS.map((f) => (f.key === 'ean' ? ean : null));
  return [id, pid, master, group, '2026-01-01T00:00:00.000Z', ...fields, ...texts] as ProductColumnsRow;
};
/** Each row copied as it comes: the generator refills one array. */
function rowsOf(...args: Parameters<typeof pageRows>): (string | null)[][] {
  const rows: (string | null)[][] = [];
  for (const row of pageRows(...args)) rows.push([...row]);
  return rows;
}

const values = (...entries: [string, string][]) =>
  JSON.stringify(entries.map(([lang, value]) => ({ lang, value })));

describe('pageRows', () => {
  it('asks the read for the texts of the columns, in their order', () => {
    expect(rowLayout(COLUMNS).want).toEqual({
      texts: [
        { kind: 'short', lang: 'deu' },
        { kind: 'long', lang: 'eng' },
      ],
      ftidrefs: ['F1', 'F2'],
    });
  });

  it("puts each product's parts into its own row, ids as numbers or digit strings", () => {
    const page: ProductColumnsPage = {
      products: [
        product(1, 'A', null, 7, '400', ['Bohrer', 'Drill']),
        product('2', 'B', 'A', null, null),
        product(10, 'C', null, null, null, ['Zange', null]),
      ],
      features: [
        [1, 'F1', 'mm', values(['deu', '5'], ['deu', '6'], ['eng', 'five'])],
        [2, 'F2', null, values(['zxx', 'x'])],
        [10, 'F1', 'V', '[]'],
      ],
    };
    const report = { valuesLeftOut: 0 };
    const rows = rowsOf(page, rowLayout(COLUMNS), report);
    expect(rows).toEqual([
      ['1', 'A', null, '7', '400', 'Bohrer', 'Drill', 'mm', '5', 'five', null],
      ['2', 'B', 'A', null, null, null, null, null, null, null, 'x'],
      ['10', 'C', null, null, null, 'Zange', null, 'V', null, null, null],
    ]);
    expect(report.valuesLeftOut).toBe(1);
  });

  it('writes a product with no texts or features as its fields only', () => {
    const page: ProductColumnsPage = {
      products: [product(5, 'E', null, null, null)],
      features: [],
    };
    const rows = rowsOf(page, rowLayout(COLUMNS), { valuesLeftOut: 0 });
    expect(rows).toEqual([['5', 'E', null, null, null, null, null, null, null, null, null]]);
  });
});
