import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SheetRow } from '../../src/interchange/spreadsheet/sheet-row.js';
import { readXlsx } from '../../src/interchange/spreadsheet/xlsx-reader.js';
import { XlsxRows, xlsxFile } from '../../src/interchange/spreadsheet/xlsx-writer.js';

/**
 * An XLSX import's progress: readXlsx passes the workbook's stored parts through `watch`, so that
 * what it counts is a share of the file (as a CSV file's bytes are), and still reads every row,
 * refusing a part that inflates to more than its zip entry says.
 */
const dir = mkdtempSync(join(tmpdir(), 'pim-xlsx-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function workbook(name: string, count: number): Promise<string> {
  const sheet = new XlsxRows(3);
  async function* rows() {
    yield sheet.xml(['supplierPid', 'short[deu]', 'ean']);
    for (let i = 0; i < count; i++)
      yield sheet.xml([`P-${i}`, `Teil ${i} mit etwas Text`, String(4000000 + i)]);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxFile(rows())) chunks.push(chunk);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat(chunks));
  return path;
}

async function all(rows: AsyncIterable<SheetRow>): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe('readXlsx with watch', () => {
  it('counts nearly all of the file as it reads, and reads the same rows as without', async () => {
    const path = await workbook('watched.xlsx', 3000);
    let counted = 0;
    const watched = await all(
      readXlsx(path, async function* (bytes) {
        for await (const chunk of bytes) {
          counted += chunk.length;
          yield chunk;
        }
      }),
    );
    expect(watched).toEqual(await all(readXlsx(path)));
    expect(watched).toHaveLength(3001);
    const size = statSync(path).size;
    // The sheet's stored bytes: all of the file but its small fixed parts and the zip's headers.
    expect(counted).toBeLessThanOrEqual(size);
    expect(counted / size).toBeGreaterThan(0.8);
  });

  it('refuses a sheet that inflates to more than its zip entry says', async () => {
    const path = await workbook('bomb.xlsx', 200);
    const bytes = readFileSync(path);
    // The central directory's record of the sheet: its uncompressed size (offset 24) made smaller.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    let at = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    while (at >= 0 && !bytes.subarray(at + 46, at + 46 + name.length).equals(name))
      at = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at - 1);
    expect(at).toBeGreaterThan(0);
    bytes.writeUInt32LE(bytes.readUInt32LE(at + 24) - 10, at + 24);
    writeFileSync(path, bytes);
    const pass = async function* (chunks: AsyncIterable<Buffer>) {
      yield* chunks;
    };
    await expect(all(readXlsx(path, pass))).rejects.toThrow(/larger than its zip entry says/);
  });
});
