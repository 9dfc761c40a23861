import { CsvRecords, CsvSyntaxError } from './csv-records.js';
import type { SheetRow } from './sheet-row.js';
import { place, SpreadsheetError } from './spreadsheet-error.js';
import { INVALID, markedUtf8 } from './utf8-text.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');

/**
 * The rows of a CSV file (RFC 4180, UTF-8), streamed: the text is split into records as its chunks
 * come (csv-records.ts), so memory stays flat however long the file. A BOM is dropped. The
 * delimiter is `,`, or `;` when the header line holds more semicolons than commas (German Excel
 * writes `;`): decided once from the header line, which holds column names only. The bytes are
 * decoded chunk by chunk with every byte that is not UTF-8 marked (utf8-text.ts), so that a file in
 * another encoding is refused at the cell it first shows, not written as mojibake; a valid file is
 * parsed as text (a Buffer per cell, checked one by one, cost a third of an unchanged import).
 * Empty lines are skipped but counted, so row numbers are the spreadsheet's. A cell may be a slice
 * of its chunk's text: whoever keeps one for long copies it (spreadsheet-import.ts, the keys).
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
  const found = { invalid: false };
  const records = new CsvRecords(delimiter);
  const complete: string[][] = [];
  let row = 0;
  const rows = function* (): Generator<SheetRow> {
    for (const cells of complete) {
      row++;
      if (cells.length === 1 && cells[0]!.length === 0) continue;
      const bad = found.invalid ? cells.findIndex((cell) => cell.includes(INVALID)) : -1;
      yield bad < 0
        ? { row, cells }
        : {
            row,
            cells,
            problem: {
              column: bad + 1,
              message: 'the bytes are not UTF-8: save the file as CSV UTF-8 (or send it with charset=utf-8)',
            },
          };
    }
    complete.length = 0;
  };
  try {
    // markedUtf8 cuts its chunks between UTF-8 sequences, so each decodes on its own.
    for await (const chunk of markedUtf8(rest(), found)) {
      records.push(chunk.toString('utf8'), complete);
      yield* rows();
    }
    records.end(complete);
    yield* rows();
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    // The records before the malformed one first: a bad cell among them is reported as it would be.
    yield* rows();
    throw new SpreadsheetError(
      `${place(error.records + 1, error.cell + 1)}: not valid CSV: ${error.message}`,
      error.records + 1,
      error.cell + 1,
    );
  }
}

function count(bytes: Buffer, byte: number): number {
  let n = 0;
  for (const b of bytes) if (b === byte) n++;
  return n;
}
