import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { SheetRow } from './sheet-row.js';
import { place, SpreadsheetError } from './spreadsheet-error.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');

/**
 * The rows of a CSV file (RFC 4180, UTF-8), streamed: csv-parse reads the bytes as they come, so
 * memory stays flat however long the file. A BOM is dropped. The delimiter is `,`, or `;` when the
 * header line holds more semicolons than commas (German Excel writes `;`): decided once from the
 * header line, which holds column names only. Cells are read as bytes and checked to be UTF-8 one
 * by one, so that a file in another encoding is refused at the cell it first shows, not
 * written as mojibake. Empty lines are skipped but counted, so row numbers are the spreadsheet's.
 */
export async function* readCsv(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<SheetRow> {
  const source = bytes[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  let ended = false;
  while (!head.includes(0x0a)) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, Buffer.from(next.value)]);
  }
  if (head.subarray(0, 3).equals(BOM)) head = head.subarray(3);
  if (head.toString('utf8').trim() === '')
    throw new SpreadsheetError('The file is empty: a CSV file starts with its header row', 1, 1);
  if (head.subarray(0, 4).equals(ZIP))
    throw new SpreadsheetError('The file is a zip archive (an XLSX file?), not CSV', 1, 1);
  const newline = head.indexOf(0x0a);
  const headerLine = head.subarray(0, newline < 0 ? head.length : newline);
  if (headerLine.includes(0))
    throw new SpreadsheetError('The file is not text (CSV): it holds NUL bytes', 1, 1);
  const delimiter = count(headerLine, 0x3b) > count(headerLine, 0x2c) ? ';' : ',';

  async function* rest(): AsyncGenerator<Buffer> {
    yield head;
    if (ended) return;
    for (let next = await source.next(); !next.done; next = await source.next())
      yield Buffer.from(next.value);
  }
  const parser = Readable.from(rest()).pipe(
    parse({ delimiter, encoding: null, relax_column_count: true, relax_quotes: false }),
  );
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<Buffer[]>) {
      row++;
      if (record.length === 1 && record[0]!.length === 0) continue;
      const cells: string[] = new Array<string>(record.length);
      let problem: SheetRow['problem'];
      for (let i = 0; i < record.length; i++) {
        const field = record[i]!;
        if (!problem && !isUtf8(field))
          problem = {
            column: i + 1,
            message: 'the bytes are not UTF-8: save the file as CSV UTF-8 (or send it with charset=utf-8)',
          };
        cells[i] = field.toString('utf8');
      }
      yield problem ? { row, cells, problem } : { row, cells };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const at = error as CsvError & { records?: number; column?: number | string };
      const column = typeof at.column === 'number' ? at.column + 1 : 1;
      throw new SpreadsheetError(
        `${place(row + 1, column)}: not valid CSV: ${error.message.replace(/^Invalid [^:]*: /, '')}`,
        row + 1,
        column,
      );
    }
    throw error;
  }
}

function count(bytes: Buffer, byte: number): number {
  let n = 0;
  for (const b of bytes) if (b === byte) n++;
  return n;
}
