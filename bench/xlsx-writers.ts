/**
 * Streaming XLSX writers compared (issue 36: "XLSX through a well-kept streaming writer, chosen by
 * measurement"); not run in CI. Each candidate writes ROWS rows of 40 string columns (the spreadsheet
 * export's shape: a product's fields, texts in 3 languages, 10 features in 2 languages with units) in
 * a child process of its own, so that its peak RSS is its own; then the file is checked: `unzip -t`,
 * the sheet's row count, and a small file of awkward values (leading/trailing spaces, line breaks,
 * `<&>"`, formula starts, unicode) read back with ExcelJS's reader, every cell compared.
 *
 *   node --import tsx bench/xlsx-writers.ts [--rows=100000] [--only=exceljs,xlsx-write-stream]
 *
 * Candidates that are not installed are skipped (`npm install --no-save xlsx-write-stream` to add one).
 * Figures and the choice: docs/spreadsheets.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const COLUMNS = 40;
const PIM_WRITER = new URL('../src/interchange/spreadsheet/xlsx-writer.ts', import.meta.url).href;
type Row = string[];
type Candidate = (rows: Iterable<Row>, path: string) => Promise<void>;
// The candidates are not pim's dependencies: loaded by a name the compiler does not resolve.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (name: string): Promise<any> => import(name);

const AWKWARD = [
  '  leading and trailing  ',
  'line\nbreak\r\nand CR',
  '<tag attr="x">&amp;</tag>',
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  '\tTAB',
  'Größe ∅ 12 mm — 日本語 😀',
  '',
  '0042',
  '1e5',
];

function* rows(count: number, awkward: boolean): Generator<Row> {
  yield Array.from({ length: COLUMNS }, (_, c) => `column ${c}`);
  for (let r = 0; r < count; r++) {
    const row: Row = [];
    for (let c = 0; c < COLUMNS; c++)
      row.push(awkward ? AWKWARD[(r + c) % AWKWARD.length]! : c < 4 ? `${r * 7 + c}` : `value ${r}-${c} mm`);
    yield row;
  }
}

const candidates: Record<string, () => Promise<Candidate>> = {
  pim: async () => {
    const { XlsxRows, xlsxFile } = await import(PIM_WRITER);
    return async (source, path) => {
      const sheet = new XlsxRows(COLUMNS);
      async function* xml() {
        let chunk = '';
        let n = 0;
        for (const row of source) {
          chunk += sheet.xml(row);
          if (++n % 500 === 0) {
            yield chunk;
            chunk = '';
          }
        }
        yield chunk;
      }
      await pipeline(Readable.from(xlsxFile(xml())), createWriteStream(path));
    };
  },
  exceljs: async () => {
    const { default: ExcelJS } = await load('exceljs');
    return async (source, path) => {
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
      const sheet = book.addWorksheet('products');
      for (const row of source) sheet.addRow(row).commit();
      await sheet.commit();
      await book.commit();
    };
  },
  'xlsx-write-stream': async () => {
    const { default: XLSXTransformStream } = (await load('xlsx-write-stream')) as {
      default: new () => NodeJS.ReadWriteStream;
    };
    return (source, path) =>
      pipeline(
        Readable.from(source, { objectMode: true }),
        new XLSXTransformStream(),
        createWriteStream(path),
      );
  },
};

async function child(name: string, count: number, path: string, awkward: boolean): Promise<void> {
  const write = await candidates[name]!();
  const start = performance.now();
  await write(rows(count, awkward), path);
  const ms = performance.now() - start;
  const usage = process.resourceUsage();
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  process.stdout.write(JSON.stringify({ ms, cpuMs, rssMb: usage.maxRSS / 1024 }));
}

async function readBack(path: string): Promise<string[][]> {
  const { default: ExcelJS } = await load('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const out: string[][] = [];
  book.worksheets[0]!.eachRow({ includeEmpty: true }, (row: { getCell(c: number): { value: unknown } }) => {
    const cells: string[] = [];
    for (let c = 1; c <= COLUMNS; c++) {
      const v = row.getCell(c).value;
      cells.push(
        v === null || v === undefined
          ? ''
          : typeof v === 'object' && 'richText' in v
            ? (v.richText as { text: string }[]).map((t) => t.text).join('')
            : String(v),
      );
    }
    out.push(cells);
  });
  return out;
}

async function main(): Promise<void> {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  if (arg('child')) return child(arg('child')!, Number(arg('rows')), arg('out')!, arg('awkward') === '1');
  const count = Number(arg('rows') ?? 100_000);
  const only = arg('only')?.split(',') ?? Object.keys(candidates);
  const dir = mkdtempSync(join(tmpdir(), 'pim-xlsx-'));
  const run = (name: string, n: number, out: string, awkward: boolean) => {
    const r = spawnSync(
      process.execPath,
      [
        ...process.execArgv,
        import.meta.filename,
        `--child=${name}`,
        `--rows=${n}`,
        `--out=${out}`,
        `--awkward=${awkward ? 1 : 0}`,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as { ms: number; cpuMs: number; rssMb: number };
  };
  try {
    for (const name of only) {
      try {
        await candidates[name]!();
      } catch {
        console.log(`${name}: not installed, skipped`);
        continue;
      }
      const out = join(dir, `${name}.xlsx`);
      const { ms, cpuMs, rssMb } = run(name, count, out, false);
      execFileSync('unzip', ['-tq', out]);
      const sheet = execFileSync(
        'sh',
        ['-c', `unzip -p '${out}' 'xl/worksheets/sheet1.xml' | grep -o '<row' | wc -l`],
        {
          encoding: 'utf8',
        },
      ).trim();
      const small = join(dir, `${name}-awkward.xlsx`);
      run(name, 1_000, small, true);
      const back = await readBack(small);
      const expected = [...rows(1_000, true)];
      let wrong = 0;
      const examples = new Set<string>();
      expected.forEach((row, r) =>
        row.forEach((v, c) => {
          if (back[r]?.[c] !== v) {
            wrong++;
            examples.add(`${JSON.stringify(v)} read back as ${JSON.stringify(back[r]?.[c])}`);
          }
        }),
      );
      console.log(
        `${name}: ${count} rows x ${COLUMNS} in ${(ms / 1000).toFixed(1)} s (CPU ${(cpuMs / 1000).toFixed(1)} s), peak RSS ${rssMb.toFixed(0)} MB, ` +
          `${(statSync(out).size / 1e6).toFixed(1)} MB, zip ok, ${sheet} rows in the sheet; awkward values: ` +
          (wrong === 0
            ? 'all exact'
            : `${wrong} of ${expected.length * COLUMNS} differ: ${[...examples].join('; ')}`),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
