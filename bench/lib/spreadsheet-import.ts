import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { PRODUCT_FIELDS } from '../../src/db/catalogue/product-fields.js';
import { neutralised } from '../../src/interchange/spreadsheet/spreadsheet-cells.js';
import { LANGUAGES, LONG_TEXT_LANGUAGES } from '../config.js';
import type { Context } from '../endpoints.js';
import { CpuMeter } from './cpu.js';
import { dataOf, send } from './http.js';
import type { Row } from './report.js';
import { RssWatch } from './rss.js';
import { round } from './stats.js';

/**
 * Issue 36's import row: the benchmark catalogue as a CSV file (every product, its fields, texts in
 * every language and FEATURE_COLUMNS features with their values and unit) imported back over
 * `POST /api/import` as a job: every product unchanged, so the row measures reading, comparing
 * and not writing. Until the spreadsheet export lands, the bench writes the file itself from the
 * cached catalogue's SQLite database (the same data `pim db move` gives PostgreSQL), in the
 * export's column names.
 */
export const SPREADSHEET_IMPORT_TARGET = 20_000;
/** Features with columns: the first definitions (20 of the catalogue's 300; each product has 10). */
const FEATURE_COLUMNS = 20;

const cell = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return '';
  const text = neutralised(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Writes the catalogue of `dbPath` as CSV into `file`; answers the products written. */
export async function writeCatalogueCsv(dbPath: string, file: string): Promise<number> {
  const db = new Database(dbPath, { readonly: true });
  const out = createWriteStream(file);
  try {
    const features = db
      .prepare('SELECT id, ftidref FROM feature_def ORDER BY id LIMIT ?')
      .all(FEATURE_COLUMNS) as { id: number; ftidref: string }[];
    const header = [
      'supplierPid',
      'masterSupplierPid',
      'groupId',
      ...PRODUCT_FIELDS.map((f) => f.key),
      ...LANGUAGES.map((l) => `short[${l}]`),
      ...LONG_TEXT_LANGUAGES.map((l) => `long[${l}]`),
      ...features.flatMap((f) => [
        ...LANGUAGES.map((l) => `feature[${f.ftidref}][${l}]`),
        `feature[${f.ftidref}].unit`,
      ]),
    ];
    out.write(`${header.map(cell).join(',')}\r\n`);
    const texts = db.prepare('SELECT kind, lang, value FROM product_text WHERE product_id = ?');
    const values = db.prepare(
      `SELECT pf.feature_id AS id, COALESCE(pf.funit, fd.default_unit) AS unit, pf.values_json
       FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id
       WHERE pf.product_id = ? AND pf.occurrence = 1 AND pf.feature_id <= ?`,
    );
    const products = db.prepare(
      `SELECT p.*, m.supplier_pid AS master_pid FROM product p LEFT JOIN product m ON m.id = p.master_id ORDER BY p.id`,
    );
    let count = 0;
    for (const p of products.iterate() as Iterable<Record<string, string | number | null>>) {
      const row: string[] = [cell(p.supplier_pid), cell(p.master_pid), cell(p.group_id)];
      for (const f of PRODUCT_FIELDS) row.push(cell(p[f.column]));
      const byKey = new Map<string, string>();
      for (const t of texts.all(p.id) as { kind: string; lang: string; value: string }[])
        byKey.set(`${t.kind === 'DESCRIPTIONSHORT' ? 'short' : 'long'}:${t.lang}`, t.value);
      for (const l of LANGUAGES) row.push(cell(byKey.get(`short:${l}`)));
      for (const l of LONG_TEXT_LANGUAGES) row.push(cell(byKey.get(`long:${l}`)));
      const own = new Map(
        (values.all(p.id, FEATURE_COLUMNS) as { id: number; unit: string | null; values_json: string }[]).map(
          (v) => [v.id, v],
        ),
      );
      for (const f of features) {
        const v = own.get(f.id);
        const byLang = new Map(
          (v ? (JSON.parse(v.values_json) as { lang: string; value: string }[]) : []).map((e) => [
            e.lang,
            e.value,
          ]),
        );
        for (const l of LANGUAGES) row.push(cell(byLang.get(l)));
        row.push(cell(v?.unit));
      }
      if (!out.write(`${row.join(',')}\r\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
      count++;
    }
    return count;
  } finally {
    db.close();
    out.end();
    await new Promise<void>((r) => out.once('finish', () => r()));
  }
}

export interface SpreadsheetImportResult {
  dryRun: boolean;
  rows: number;
  unchanged: number;
  ms: number;
  bytes: number;
  rss: { beforeMb: number; peakMb: number };
  other?: number;
  failed?: string;
}

/** POST /api/import of the CSV, followed to the job's end. */
export async function measureSpreadsheetImport(
  ctx: Context,
  pid: number,
  file: string,
  dryRun: boolean,
): Promise<SpreadsheetImportResult> {
  const bytes = statSync(file).size;
  const meter = new CpuMeter(pid);
  const rss = new RssWatch(pid, 50);
  const started = performance.now();
  const fail = (failed: string): SpreadsheetImportResult => {
    meter.stop();
    rss.stop();
    return { dryRun, rows: 0, unchanged: 0, ms: NaN, bytes, rss: { beforeMb: 0, peakMb: 0 }, failed };
  };
  const upload = await fetch(`${ctx.baseUrl}/api/import?name=bench.csv${dryRun ? '&dryRun=true' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'text/csv' },
    body: Readable.toWeb(createReadStream(file)) as never,
    duplex: 'half',
  } as RequestInit);
  const job = (await upload.json()) as { data?: { id: number } };
  if (upload.status !== 202 || !job.data)
    return fail(`${upload.status} ${JSON.stringify(job).slice(0, 200)}`);
  // Polled: the job's state is read over REST like any client would (there is nothing to await).
  for (;;) {
    const state = dataOf(await send(ctx.baseUrl, 'GET', { path: `/api/job/${job.data.id}` }, ctx.token)) as {
      state: string;
      report?: { rows: number; unchanged: number };
      error?: { message: string };
    };
    if (state.state === 'running' || state.state === 'queued') {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const ms = performance.now() - started;
    const cpu = meter.stop();
    const reading = rss.stop();
    if (state.state !== 'succeeded') return fail(`job ${state.state}: ${state.error?.message ?? ''}`);
    return {
      dryRun,
      rows: state.report?.rows ?? 0,
      unchanged: state.report?.unchanged ?? 0,
      ms: round(ms, 0),
      bytes,
      rss: reading,
      other: cpu?.other,
    };
  }
}

export function spreadsheetImportRow(r: SpreadsheetImportResult): Row {
  const perSecond = Number.isFinite(r.ms) ? Math.round(r.rows / (r.ms / 1000)) : 0;
  const allUnchanged = r.unchanged === r.rows;
  return {
    endpoint: `POST /api/import: the catalogue's CSV back, all unchanged (job${r.dryRun ? ', dry run' : ''})`,
    rps: perSecond,
    p50: r.ms,
    rssMb: r.rss.peakMb,
    sequential: true,
    target: `≥ ${SPREADSHEET_IMPORT_TARGET.toLocaleString('en')} products/s`,
    verdict: r.failed || !allUnchanged ? 'ERRORS' : perSecond >= SPREADSHEET_IMPORT_TARGET ? 'met' : 'missed',
    note: [
      `req/s column: products/s; p50: upload and job in ms; ${r.rows} rows (${r.unchanged} unchanged), ${round(r.bytes / 1e6, 1)} MB; RSS ${r.rss.beforeMb} MB before`,
      `bound by the batches' state reads (SQLite's or PostgreSQL's statements), the comparison and splitting the CSV; the file names ${FEATURE_COLUMNS} of the 300 features, and an exported file (all of them) comes back some three times slower (docs/spreadsheets.md, "Import")`,
      r.failed,
      r.other !== undefined && r.other > 0.2 ? `DISTURBED: other processes used ${r.other} cores` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}
