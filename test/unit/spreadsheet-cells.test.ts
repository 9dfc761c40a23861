import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvChunks, csvField } from '../../src/interchange/spreadsheet/csv-writer.js';

/** A record as strings: the definition CsvChunks's bytes must equal. */
const csvRecord = (values: readonly (string | null | undefined)[]) =>
  `${values.map((value) => (value === null || value === undefined || value === '' ? '' : csvField(value))).join(',')}\r\n`;
import { neutralised, restored } from '../../src/interchange/spreadsheet/spreadsheet-cells.js';
import { columnLetters, xlsxText } from '../../src/interchange/spreadsheet/xlsx-writer.js';
import { parseCsvStrict } from '../helpers/csv.js';

/** The cells' rules: formula neutralisation, RFC 4180 fields, XLSX inline text. */
const awkward = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      "'",
      '"',
      ',',
      ' ',
      '&',
      '<',
      '_x0041_',
      '\u0001',
      '\uFFFE',
      '😀',
    ),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 20,
});

describe('formula neutralisation', () => {
  it('round-trips every value and never leaves a formula start', () => {
    fc.assert(
      fc.property(awkward, (value) => {
        const cell = neutralised(value);
        expect(restored(cell)).toBe(value);
        expect(/^[=+\-@\t\r]/.test(cell)).toBe(false);
      }),
      { numRuns: 3000 },
    );
    expect(neutralised('=1+1')).toBe("'=1+1");
    expect(neutralised("'x")).toBe("''x");
    expect(neutralised('x=1')).toBe('x=1');
  });
});

describe('CSV records', () => {
  it('read back by a strict RFC 4180 reader as the neutralised values', () => {
    fc.assert(
      fc.property(fc.array(awkward, { minLength: 1, maxLength: 5 }), (values) => {
        expect(parseCsvStrict(csvRecord(values))).toEqual([values.map(neutralised)]);
      }),
      { numRuns: 2000 },
    );
    expect(csvRecord(['a,b', 'say "hi"', null, 'x'])).toBe('"a,b","say ""hi""",,x\r\n');
  });
});

describe('CSV records into buffers', () => {
  it('are the UTF-8 of csvRecord, whatever the chunk size and the rows', () => {
    const cell = fc.oneof(awkward, fc.constant(null), fc.constant(''), fc.constant(undefined));
    const row = fc.array(cell, { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.integer({ min: 1, max: 200 }), (rows, chunk) => {
        const out = new CsvChunks(chunk);
        const chunks: Buffer[] = [];
        rows.forEach((values, i) => {
          const full = out.record(values);
          if (full) {
            expect(full.length).toBeGreaterThanOrEqual(chunk);
            chunks.push(full);
          }
          // Flushed now and then, as the export does after each page.
          const rest = i % 5 === 4 ? out.flush() : undefined;
          if (rest) chunks.push(rest);
        });
        const rest = out.flush();
        if (rest) chunks.push(rest);
        expect(out.flush()).toBeUndefined();
        expect(Buffer.concat(chunks)).toEqual(Buffer.from(rows.map(csvRecord).join(''), 'utf8'));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('XLSX text', () => {
  it('keeps what XML would change or cannot carry', () => {
    expect(xlsxText('plain')).toBe('<t>plain</t>');
    expect(xlsxText(' a\r\n')).toBe('<t xml:space="preserve"> a&#13;\n</t>');
    expect(xlsxText('<&>')).toBe('<t>&lt;&amp;&gt;</t>');
    expect(xlsxText('bell\u0007 _x0041_')).toBe('<t>bell_x0007_ _x005F_x0041_</t>');
  });

  it('names columns A to Z, then AA', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
