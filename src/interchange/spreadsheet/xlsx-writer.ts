import { ZipWriter } from './zip-writer.js';

/**
 * An XLSX workbook of one sheet written as a stream (docs/spreadsheets.md: why not a library).
 * Every value is an inline string cell (`t="inlineStr"`): never a formula, never a number
 * guessed from text, so `0042` stays `0042` and `=1+1` is text. The header row is bold and frozen.
 *
 * Values are kept exactly: `xml:space="preserve"` where whitespace at an end or a line break
 * would otherwise be dropped by the reading program, CR as `&#13;` (an XML parser turns a
 * written CR into LF), and the characters XML 1.0 cannot carry (C0 controls but TAB, LF, CR;
 * U+FFFE, U+FFFF) as OOXML's `_xHHHH_`, a text that already looks like `_xHHHH_` with its `_`
 * written as `_x005F_` (ECMA-376 Part 1, 22.9.2.19 ST_Xstring: what Excel writes and reads).
 */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export const XLSX_SHEET_NAME = 'products';

const PARTS: readonly [string, string][] = [
  [
    '[Content_Types].xml',
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    `<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${XLSX_SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `<styleSheet xmlns="${MAIN}">` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
  ],
];

const SHEET_START =
  `<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0">` +
  '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>';
const SHEET_END = '</sheetData></worksheet>';

// eslint-disable-next-line no-control-regex
const SPECIAL = /[&<>\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|_x[0-9A-Fa-f]{4}_/g;
const PRESERVE = /^\s|\s$|[\n\r\t]/;

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

function special(match: string): string {
  switch (match) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    case '\r':
      return '&#13;';
  }
  return match.length === 1 ? `_x${hex4(match.charCodeAt(0))}_` : `_x005F_${match.slice(1)}`;
}

/** A value as the text of an inline string. */
export function xlsxText(value: string): string {
  const text = value.replace(SPECIAL, special);
  return PRESERVE.test(value) ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`;
}

/** A, B, ..., Z, AA, ...: a column's letters (index from 0). */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The rows of the sheet as XML, numbered from 1; the first row (the header) bold. */
export class XlsxRows {
  private row = 0;
  private readonly letters: string[] = [];

  constructor(private readonly columns: number) {
    for (let c = 0; c < columns; c++) this.letters.push(columnLetters(c));
  }

  /** One row; empty and absent values leave their cell out. */
  xml(values: readonly (string | null | undefined)[]): string {
    const r = ++this.row;
    const style = r === 1 ? ' s="1"' : '';
    let xml = `<row r="${r}">`;
    for (let c = 0; c < this.columns; c++) {
      const value = values[c];
      if (value === null || value === undefined || value === '') continue;
      xml += `<c r="${this.letters[c]}${r}"${style} t="inlineStr"><is>${xlsxText(value)}</is></c>`;
    }
    return `${xml}</row>`;
  }
}

/** The whole file: the fixed parts, then the sheet deflated as its rows come, then the directory. */
export async function* xlsxFile(rows: AsyncIterable<string>): AsyncGenerator<Buffer> {
  const zip = new ZipWriter();
  for (const [name, xml] of PARTS) yield zip.stored(name, Buffer.from(XML_DECL + xml, 'utf8'));
  async function* sheet() {
    yield XML_DECL + SHEET_START;
    for await (const chunk of rows) yield chunk;
    yield SHEET_END;
  }
  yield* zip.deflated('xl/worksheets/sheet1.xml', sheet());
  yield zip.end();
}
