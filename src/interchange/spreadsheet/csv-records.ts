/**
 * CSV text split into records (RFC 4180), fed a chunk at a time: the CSV reader's parser. It reads
 * a file as csv-parse 7 did with the options pim gave it (the delimiter given, `"` quoting with `""`
 * inside, no trimming, no comments, empty lines as records of one empty cell, any number of cells
 * a record), property-tested against it (test/unit/csv-records.test.ts), and is some times
 * faster: csv-parse walks the bytes one by one through a state machine with a callback and a string
 * per cell, where this scans the text with `charCodeAt` and slices each cell out of it
 * (docs/spreadsheets.md, "Import").
 *
 * The record delimiter is found as csv-parse finds it: the first CR LF, LF or CR outside quotes
 * decides, and from then on only that one ends a record (the others are a cell's text).
 * Malformed CSV throws CsvSyntaxError after the records before it have been handed over.
 */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** Records before the one that is malformed (empty lines included): its row is this + 1. */
    readonly records: number,
    /** The malformed cell's index in its record (0-based). */
    readonly cell: number,
  ) {
    super(message);
  }
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** The record of a quoted cell that is still open, or one cut by the end of the text so far. */
const INCOMPLETE = -1;

export class CsvRecords {
  private readonly delimiter: number;
  /** '' until the first line break outside quotes decides. */
  private recordDelimiter: '' | '\r\n' | '\n' | '\r' = '';
  /** Text of the record not complete yet (a chunk ended in it). */
  private pending = '';
  /** Try the pending record again only once this much text is held: a record longer than a chunk is scanned a bounded number of times. */
  private retryAt = 0;
  private records = 0;
  /** The record being read: its cells so far; reused while a chunk's records are read. */
  private cells: string[] = [];

  constructor(delimiter: ',' | ';') {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** The records that `text` completes, in order; the rest is kept for the next call. */
  push(text: string, out: string[][]): void {
    this.pending = this.pending === '' ? text : this.pending + text;
    if (this.pending.length < this.retryAt) return;
    this.split(false, out);
  }

  /** The last records, once the text has ended. */
  end(out: string[][]): void {
    this.split(true, out);
  }

  private split(final: boolean, out: string[][]): void {
    const text = this.pending;
    let at = 0;
    while (at < text.length) {
      const next = this.record(text, at, final);
      if (next === INCOMPLETE) break;
      out.push(this.cells);
      this.cells = [];
      this.records++;
      at = next;
    }
    this.pending = at === 0 ? text : text.slice(at);
    this.retryAt = this.pending.length * 2;
  }

  /** Reads the record at `start` into `cells`; answers where the next begins, or INCOMPLETE. */
  private record(text: string, start: number, final: boolean): number {
    const cells = this.cells;
    cells.length = 0;
    let at = start;
    for (;;) {
      const end =
        text.charCodeAt(at) === QUOTE ? this.quoted(text, at, final) : this.unquoted(text, at, final);
      if (end === INCOMPLETE) return INCOMPLETE;
      if (end >= text.length) return end;
      if (text.charCodeAt(end) === this.delimiter) {
        at = end + 1;
        // A delimiter at the very end of the file leaves one more, empty cell.
        if (at === text.length && final) {
          cells.push('');
          return at;
        }
        continue;
      }
      return end + this.recordDelimiter.length;
    }
  }

  /**
   * The unquoted cell at `start`, pushed onto cells: answers where it ends (at a delimiter, a
   * record delimiter or the end of the text), or INCOMPLETE.
   */
  private unquoted(text: string, start: number, final: boolean): number {
    const delimiter = this.delimiter;
    const length = text.length;
    for (let i = start; i < length; i++) {
      const code = text.charCodeAt(i);
      // One test for the characters that are a cell's text (all but the delimiter, `"`, CR, LF).
      if (code > QUOTE && code !== delimiter) continue;
      if (code === delimiter) {
        this.cells.push(i === start ? '' : text.slice(start, i));
        return i;
      }
      if (code === CR || code === LF) {
        const ends = this.endsRecord(text, i, final);
        if (ends === INCOMPLETE) return INCOMPLETE;
        if (ends) {
          this.cells.push(i === start ? '' : text.slice(start, i));
          return i;
        }
      } else if (code === QUOTE) {
        throw new CsvSyntaxError(
          'a quote inside a cell that does not begin with one (a cell holding `"` is written in quotes, its quotes doubled)',
          this.records,
          this.cells.length,
        );
      }
    }
    if (!final) return INCOMPLETE;
    this.cells.push(text.slice(start));
    return length;
  }

  /** The quoted cell at `start` (its opening quote), pushed onto cells: as `unquoted`. */
  private quoted(text: string, start: number, final: boolean): number {
    const length = text.length;
    let value = '';
    let from = start + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote < 0 || (quote + 1 === length && !final)) {
        if (!final) return INCOMPLETE;
        throw new CsvSyntaxError(
          'the file ends inside a quoted cell (its closing quote is missing)',
          this.records,
          this.cells.length,
        );
      }
      const after = quote + 1;
      const code = text.charCodeAt(after);
      if (code === QUOTE) {
        value += text.slice(from, after);
        from = after + 1;
        continue;
      }
      if (after === length || code === this.delimiter) {
        this.cells.push(value + text.slice(from, quote));
        return after;
      }
      const ends = code === CR || code === LF ? this.endsRecord(text, after, final) : false;
      if (ends === INCOMPLETE) return INCOMPLETE;
      if (ends) {
        this.cells.push(value + text.slice(from, quote));
        return after;
      }
      throw new CsvSyntaxError(
        `a quoted cell is closed but ${JSON.stringify(text.charAt(after))} follows its closing quote instead of a delimiter or the end of the line`,
        this.records,
        this.cells.length,
      );
    }
  }

  /** Whether the CR or LF at `i` (outside quotes) ends the record; the first one decides which does. */
  private endsRecord(text: string, i: number, final: boolean): boolean | typeof INCOMPLETE {
    const code = text.charCodeAt(i);
    const crlf = code === CR && text.charCodeAt(i + 1) === LF;
    // A CR at the end of the text so far may be the first half of CR LF.
    if (code === CR && i + 1 === text.length && !final) return INCOMPLETE;
    if (this.recordDelimiter === '') this.recordDelimiter = crlf ? '\r\n' : code === CR ? '\r' : '\n';
    switch (this.recordDelimiter) {
      case '\r\n':
        return crlf;
      case '\r':
        return code === CR;
      default:
        return code === LF;
    }
  }
}
