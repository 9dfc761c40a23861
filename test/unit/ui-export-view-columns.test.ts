import { describe, expect, it } from 'vitest';
import { isColumnError, parseColumnName } from '../../src/interchange/spreadsheet/spreadsheet-columns.js';
import { viewColumns } from '../../src/ui/components/catalogue/export-view-columns.js';
import { GRID_COLUMNS } from '../../src/window/grid-columns.constants.js';

/** File › Export view…'s columns: the grid's visible columns as spreadsheet columns the import reads back. */
describe('viewColumns', () => {
  it('maps every grid column, in the grid’s order, to columns a spreadsheet import reads', () => {
    const columns = viewColumns(GRID_COLUMNS, ['eng', 'zxx', 'deu'], ['deu', 'eng']);
    expect(columns).toEqual([
      'id',
      'supplierPid',
      'short[eng]',
      'short[deu]',
      'ean',
      'manufacturerPid',
      'masterSupplierPid',
      'groupId',
      'updatedAt',
    ]);
    for (const name of columns) expect(isColumnError(parseColumnName(name)), name).toBe(false);
  });

  it('puts supplierPid first when the grid hides it, and leaves Name out without a text language', () => {
    expect(viewColumns(['name', 'ean'], ['zxx'], ['deu'])).toEqual(['supplierPid', 'ean']);
    expect(viewColumns(['updatedAt', 'name'], ['deu'], ['deu'])).toEqual([
      'supplierPid',
      'updatedAt',
      'short[deu]',
    ]);
  });
});
