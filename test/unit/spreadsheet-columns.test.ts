import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  columnName,
  isColumnError,
  parseColumnName,
  READ_ONLY_FIELDS,
  SPREADSHEET_FIELDS,
  type SpreadsheetColumn,
} from '../../src/interchange/spreadsheet/spreadsheet-columns.js';
import { splitColumnList } from '../../src/interchange/spreadsheet/spreadsheet-export-columns.js';

/**
 * The spreadsheet's column names: the contract between export and import. Every column's name
 * parses back to the column, FTIDREFs with brackets, `#`, spaces, commas and unicode included.
 */
const LANGUAGES = ['deu', 'eng', 'fra', 'zxx', 'jpn'];
const ftidref = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('[', ']', '#', ' ', ',', '.', '-', 'unit', '][deu', '].unit', 'ä', '日', '😀'),
      fc.string({ minLength: 1, maxLength: 1 }),
    ),
    minLength: 1,
    maxLength: 12,
  })
  // An FTIDREF holds no line break; the name is trimmed, so no blank at its ends (a name's ends are letters or brackets).
  .filter((s) => !/[\r\n]/.test(s));
const lang = fc.constantFrom(...LANGUAGES);
const column: fc.Arbitrary<SpreadsheetColumn> = fc.oneof(
  fc.constantFrom(...SPREADSHEET_FIELDS).map((field) => ({ kind: 'field' as const, field })),
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.constantFrom('short' as const, 'long' as const),
    lang,
  }),
  fc.record({ kind: fc.constant('featureValue' as const), ftidref, lang }),
  fc.record({ kind: fc.constant('featureUnit' as const), ftidref }),
);

describe('spreadsheet column names', () => {
  it('parse back to the column they name', () => {
    fc.assert(
      fc.property(column, (c) => {
        expect(parseColumnName(columnName(c))).toEqual(c);
      }),
      { numRuns: 2000 },
    );
  });

  it('name ECLASS features and languages as the issue writes them', () => {
    expect(parseColumnName('feature[0173-1#02-AAF040#004][eng]')).toEqual({
      kind: 'featureValue',
      ftidref: '0173-1#02-AAF040#004',
      lang: 'eng',
    });
    expect(parseColumnName('feature[a]b].unit')).toEqual({ kind: 'featureUnit', ftidref: 'a]b' });
    expect(parseColumnName(' short[ger] ')).toEqual({ kind: 'text', text: 'short', lang: 'deu' });
    expect(READ_ONLY_FIELDS).toEqual(new Set(['id', 'updatedAt']));
  });

  it('say why a name is no column', () => {
    for (const name of [
      'nope',
      'short[xx]',
      'feature[][deu]',
      'feature[a\nb].unit',
      'long[]',
      'feature[x][qq]',
    ]) {
      const parsed = parseColumnName(name);
      expect(isColumnError(parsed), name).toBe(true);
    }
  });

  it('split a comma list only where a column name follows, so an FTIDREF may hold commas', () => {
    fc.assert(
      fc.property(fc.array(column, { minLength: 1, maxLength: 6 }), (columns) => {
        const names = columns.map(columnName);
        // A list is ambiguous only where an FTIDREF itself holds ",short[" and the like.
        fc.pre(names.every((n) => !/,(short\[|long\[|feature\[|[a-zA-Z]+(,|$))/.test(n)));
        expect(splitColumnList(names.join(','))).toEqual(names);
      }),
      { numRuns: 1000 },
    );
    expect(splitColumnList('supplierPid,feature[a,b][deu],short[eng]')).toEqual([
      'supplierPid',
      'feature[a,b][deu]',
      'short[eng]',
    ]);
  });
});
