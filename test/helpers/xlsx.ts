import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';

/**
 * An XLSX file's first sheet as rows of strings, for tests: `unzip -t` must pass, then the sheet's
 * XML is read with an XML parser (inline strings and shared strings, cell references honoured,
 * OOXML's `_xHHHH_` decoded). A cell that is not a string (a number, a formula) throws.
 */
export function readXlsx(bytes: Uint8Array): { rows: string[][]; sheetXml: string; parts: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'pim-xlsx-'));
  try {
    const file = join(dir, 'file.xlsx');
    writeFileSync(file, bytes);
    execFileSync('unzip', ['-tq', file]);
    const parts = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    const sheetXml = execFileSync('unzip', ['-p', file, 'xl/worksheets/sheet1.xml'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    return { rows: sheetRows(sheetXml), sheetXml, parts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)![0];
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const decodeXstring = (text: string) =>
  text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function sheetRows(xml: string): string[][] {
  const rows: string[][] = [];
  const parser = new SaxesParser();
  let row: string[] | undefined;
  let cell: { col: number; text: string; inT: boolean } | undefined;
  let nextCol = 0;
  parser.on('opentag', (tag) => {
    if (tag.name === 'row') {
      row = [];
      nextCol = 0;
      const r = Number(tag.attributes.r);
      while (rows.length < r - 1) rows.push([]);
    } else if (tag.name === 'c') {
      const ref = tag.attributes.r as string | undefined;
      const col = ref ? columnIndex(ref) : nextCol;
      if (tag.attributes.t !== 'inlineStr')
        throw new Error(`cell ${ref} is not an inline string: t=${tag.attributes.t}`);
      cell = { col, text: '', inT: false };
    } else if (tag.name === 't' && cell) cell.inT = true;
    else if (tag.name === 'f' || tag.name === 'v') throw new Error(`a <${tag.name}> in the sheet`);
  });
  parser.on('text', (text) => {
    if (cell?.inT) cell.text += text;
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 't' && cell) cell.inT = false;
    else if (tag.name === 'c' && cell && row) {
      while (row.length < cell.col) row.push('');
      row[cell.col] = decodeXstring(cell.text);
      nextCol = cell.col + 1;
      cell = undefined;
    } else if (tag.name === 'row' && row) {
      rows.push(row);
      row = undefined;
    }
  });
  parser.write(xml).close();
  return rows;
}
