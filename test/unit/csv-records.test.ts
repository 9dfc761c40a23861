import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/interchange/spreadsheet/csv-reader.js';
import { CsvRecords, CsvSyntaxError } from '../../src/interchange/spreadsheet/csv-records.js';
import { SpreadsheetError } from '../../src/interchange/spreadsheet/spreadsheet-error.js';

/**
 * pim's CSV splitter against csv-parse 7, which read the import's files before it, with the options
 * pim gave it: the same records, and for malformed text an error at the same record and cell.
 */
type Outcome = { records: string[][] } | { error: { records: number; cell: number } };

function oracle(text: string, delimiter: ',' | ';'): Outcome {
  try {
    return { records: parse(text, { delimiter, relax_column_count: true, relax_quotes: false }) };
  } catch (error) {
    const at = error as { records: number; column: number };
    return { error: { records: at.records, cell: at.column } };
  }
}

/** The splitter fed `text` cut at `cuts` (positions into the text). */
function split(text: string, delimiter: ',' | ';', cuts: number[] = []): Outcome {
  const splitter = new CsvRecords(delimiter);
  const records: string[][] = [];
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  try {
    let from = 0;
    for (const cut of [...at, text.length]) {
      splitter.push(text.slice(from, cut), records);
      from = cut;
    }
    splitter.end(records);
    return { records };
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    // csv-parse stops at the error; the records before it were handed over already.
    expect(records.length).toBe(error.records);
    return { error: { records: error.records, cell: error.cell } };
  }
}

const delimiter = fc.constantFrom<',' | ';'>(',', ';');
const text = (d: string) =>
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '\t', "'", d === ',' ? ';' : ',') });

/** A cell written as RFC 4180 says: quoted (quotes doubled) where it must be, or when chosen. */
const cell = (d: string) =>
  fc
    .tuple(
      fc.string({ unit: fc.constantFrom('a', 'ß', '"', '\r', '\n', '\r\n', d, ' ', '😀', "'") }),
      fc.boolean(),
    )
    .map(([value, quote]) => (quote || /["\r\n,;]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value));

/** Well-formed CSV: records of cells (empty ones too, and empty lines), CR LF or LF, a last line with or without its line break. */
const wellFormed = delimiter.chain((d) =>
  fc
    .record({
      records: fc.array(
        fc.array(fc.oneof(cell(d), fc.constant(''), text(d)), { minLength: 1, maxLength: 6 }),
        {
          maxLength: 8,
        },
      ),
      newline: fc.constantFrom('\r\n', '\n'),
      lastNewline: fc.boolean(),
    })
    .map(({ records, newline, lastNewline }) => ({
      d,
      newline,
      csv: records.map((r) => r.join(d)).join(newline) + (lastNewline && records.length > 0 ? newline : ''),
    })),
);

/** Any text of CSV's special characters: malformed quotes, mixed line breaks, lone CRs. */
const anyText = delimiter.chain((d) =>
  fc
    .string({
      unit: fc.constantFrom('a', 'é', '"', '""', ',', ';', '\r', '\n', '\r\n', ' ', '😀'),
      maxLength: 40,
    })
    .map((csv) => ({ d, csv })),
);

const cuts = fc.array(fc.nat(), { maxLength: 6 });

describe('CsvRecords', () => {
  it('splits well-formed CSV as csv-parse does, however the chunks cut it', () => {
    fc.assert(
      fc.property(wellFormed, cuts, ({ d, csv }, at) => {
        const expected = oracle(csv, d);
        expect('records' in expected).toBe(true);
        expect(split(csv, d, at)).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses malformed CSV at the record and cell csv-parse names, and splits the rest as it does', () => {
    fc.assert(
      fc.property(anyText, cuts, ({ d, csv }, at) => {
        expect(split(csv, d, at)).toEqual(oracle(csv, d));
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads a record longer than many chunks, and a quoted cell of line breaks', () => {
    const long = `"${'x\r\n"",'.repeat(50_000)}"`;
    const csv = `a,b\r\n${long},c\r\nd,e`;
    const cutsEvery = Array.from({ length: 200 }, (_, i) => i * 1_013);
    expect(split(csv, ',', cutsEvery)).toEqual(oracle(csv, ','));
  });
});

/** The whole reader: bytes with a BOM, cut anywhere, to the rows the import gets. */
async function rows(bytes: Buffer, at: number[]): Promise<{ row: number; cells: string[] }[] | string> {
  const cutsAt = [...new Set(at.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  async function* chunks() {
    let from = 0;
    for (const cut of [...cutsAt, bytes.length]) {
      yield bytes.subarray(from, cut);
      from = cut;
    }
  }
  const out: { row: number; cells: string[] }[] = [];
  try {
    for await (const row of readCsv(chunks())) out.push({ row: row.row, cells: [...row.cells] });
  } catch (error) {
    if (error instanceof SpreadsheetError) return `${error.line}:${error.column}`;
    throw error;
  }
  return out;
}

describe('readCsv', () => {
  it('hands over the rows csv-parse reads, numbered as the spreadsheet shows them, a BOM dropped, the header deciding the delimiter', async () => {
    await fc.assert(
      fc.asyncProperty(wellFormed, fc.boolean(), cuts, async ({ d, newline, csv }, bom, at) => {
        // The reader needs a header line that names its delimiter and is not empty.
        const header = d === ';' ? 'supplierPid;x' : 'supplierPid,x';
        const body = `${header}${newline}${csv}`;
        const expected = (parse(body, { delimiter: d, relax_column_count: true }) as string[][])
          .map((cells, i) => ({ row: i + 1, cells }))
          .filter(({ cells }) => !(cells.length === 1 && cells[0] === ''));
        const bytes = Buffer.from(`${bom ? '\ufeff' : ''}${body}`, 'utf8');
        expect(await rows(bytes, at)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('names the row and cell of malformed CSV after handing over the rows before it', async () => {
    const bytes = Buffer.from('supplierPid,ean\r\nSB-1,1\r\n\r\nSB-2,x"y\r\nSB-3,3\r\n');
    expect(await rows(bytes, [20])).toBe('4:2');
    expect(await rows(Buffer.from('supplierPid,ean\r\nSB-1,"12\r\n'), [])).toBe('2:2');
    expect(await rows(Buffer.from('supplierPid,ean\r\n"SB-1"x,1\r\n'), [3])).toBe('2:1');
  });
});
