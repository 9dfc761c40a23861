import { neutralised } from './spreadsheet-cells.js';

/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field holding `"`,
 * `,`, CR or LF quoted with its quotes doubled. Values are neutralised against formulas first
 * (spreadsheet-cells.ts). UTF-8; the byte-order mark Excel needs to read UTF-8 is the caller's.
 */

export const CSV_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string): string {
  const cell = neutralised(value);
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Records (fields by csvField, commas between them, CRLF after; null, undefined and '' empty),
 * encoded as UTF-8 straight into buffers of about `chunk` bytes: the export's 208 MB were built as strings and then encoded (`Buffer.from`, flattening the
 * appended string first), which was 13 % of its CPU profile; here each filled cell is encoded once
 * into place and a run of empty cells is a run of comma bytes. Property-tested to give
 * exactly the bytes of the fields joined as strings (test/unit/spreadsheet-cells.test.ts).
 */
export class CsvChunks {
  private buffer: Buffer;
  private at = 0;

  constructor(private readonly chunk = 65_536) {
    this.buffer = Buffer.allocUnsafe(chunk * 2);
  }

  /** Appends one record; answers the bytes held once they reach the chunk's size. */
  record(values: readonly (string | null | undefined)[]): Buffer | undefined {
    let pending = 0;
    for (let i = 0; i < values.length; i++) {
      if (i > 0) pending++;
      const value = values[i];
      if (value === null || value === undefined || value === '') continue;
      const field = csvField(value);
      // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
      this.room(pending + field.length * 3);
      this.commas(pending);
      pending = 0;
      this.at += this.buffer.write(field, this.at, 'utf8');
    }
    this.room(pending + 2);
    this.commas(pending);
    this.buffer[this.at++] = CR;
    this.buffer[this.at++] = LF;
    return this.at >= this.chunk ? this.flush() : undefined;
  }

  /** The bytes held (undefined: none), handed over: the buffer is not written again. */
  flush(): Buffer | undefined {
    if (this.at === 0) return undefined;
    const bytes = this.buffer.subarray(0, this.at);
    this.buffer = Buffer.allocUnsafe(this.chunk * 2);
    this.at = 0;
    return bytes;
  }

  private commas(count: number): void {
    if (count > 8) this.buffer.fill(COMMA, this.at, this.at + count);
    else for (let i = 0; i < count; i++) this.buffer[this.at + i] = COMMA;
    this.at += count;
  }

  /** A record longer than the buffer's room: a larger one, the record so far copied. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
}
