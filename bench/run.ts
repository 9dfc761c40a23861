/**
 * The benchmark suite: `npm run bench [-- --quick] [--db postgres] [--duration=S] [--only=key,key] [--keep] [--profile]`.
 * --only: product-by-id, product-not-modified, rest-product-sheet, mcp-get-product,
 * mcp-get-product-2025, product-features, product-page, full-list, group-tree, fairness,
 * export-fairness-csv and export-fairness-bmecat (GET by id while an export streams), lock-wait,
 * put-short-text, post-product, nightly-sync, bulk-load, bmecat-export (GET /api/export as 2005.1),
 * bmecat-import (the export's first 10,000 products into a new workspace), mass-edit (setFeature on half the
 * catalogue as a job, then its undo), spreadsheet-csv and spreadsheet-xlsx (GET /api/export?format=csv|xlsx,
 * the whole catalogue), spreadsheet-import (the catalogue's CSV back, all unchanged, then as a dry
 * run), bmecat-import-reads (GET by id while the same products are imported into the open workspace),
 * access-log (GET by id again with logs off),
 * pg-writers (--db postgres: 50 writers on one instance, then on two on the same database),
 * window (the window's rows, in Chromium).
 * pim runs as users run it: the default log level, standard error appended to pim.log in the run's folder.
 * --db postgres: the same catalogue moved into a fresh PostgreSQL database (`pim db move`, timed).
 * --profile: runs pim with node --cpu-prof and prints where its CPU time went (best with --only).
 * Starts bare node:http and pim on a generated catalogue, loads both with autocannon,
 * prints every endpoint as a ratio to the baseline, and writes bench/results/.
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN, SIZES } from './config.js';
import { LATER_ENDPOINTS, READ_ENDPOINTS, type Context, type Endpoint } from './endpoints.js';
import { ensureCatalogue, prepareRunData } from './generate.js';
import {
  measureSpreadsheetImport,
  spreadsheetImportRow,
  writeCatalogueCsv,
  type SpreadsheetImportResult,
} from './lib/spreadsheet-import.js';
import { ensureBuilt } from './lib/build.js';
import { waitForQuiet } from './lib/cpu.js';
import { measureFullList } from './lib/full-list.js';
import { dataOf, describe, login, send } from './lib/http.js';
import type { LoadResult } from './lib/load.js';
import { machineInfo } from './lib/machine.js';
import { measureBaseline, measureEndpoint, type Outcome, type Timing } from './lib/measure.js';
import { REPO_ROOT, startBaseline, startPim, type Server } from './lib/processes.js';
import { measureWindowRows } from './lib/window/window-run.js';
import { windowRows, type WindowResult } from './lib/window/window-bench.js';
import { profilesIn, summariseProfile } from './lib/profile.js';
import {
  endpointRow,
  type Baseline,
  FULL_LIST_TARGET,
  FULL_LIST_TARGET_POSTGRES,
  fullListRows,
  type FullListOutcome,
} from './lib/rows.js';
import { textTable } from './lib/report.js';
import { writeResults } from './lib/results.js';
import { round } from './lib/stats.js';
import { findWrk, runWrk, type WrkResult } from './lib/wrk.js';
import { createBenchDatabase, dropBenchDatabase, moveToPostgres } from './lib/postgres.js';
import {
  bulkLoadRow,
  measureBulkLoad,
  measureNightlySync,
  nightlySyncRow,
  type BulkLoadResult,
  type NightlySyncResult,
} from './lib/sync.js';
import type { Row } from './lib/report.js';
import { fairnessRow, fullLists, measureFairness, type FairnessResult } from './lib/fairness.js';
import { lockWaitRow, measureLockWait, type LockWaitResult } from './lib/lock-wait.js';
import { accessLogRow, type AccessLogResult } from './lib/access-log.js';
import {
  bmecatExportRow,
  bmecatImportRow,
  firstProducts,
  measureBmecatExport,
  measureBmecatImport,
  type BmecatExportResult,
  type BmecatImportResult,
} from './lib/bmecat.js';
import { massEditRows, measureMassEdit, type MassEditResult } from './lib/mass-edit.js';
import { importReadsRow, measureImportReads, type ImportReadsResult } from './lib/bmecat-reads.js';
import { measurePgWriters, pgWritersRows, type PgWritersResult } from './lib/pg-writers.js';
import {
  measureSpreadsheetExport,
  spreadsheetExportRow,
  type SpreadsheetExportResult,
} from './lib/spreadsheet-export.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    db: { type: 'string', default: 'sqlite' },
  },
});
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');
const backend = args.db;
const size = args.quick ? SIZES.quick : SIZES.full;
const timing: Timing = {
  duration: args.duration ? Math.max(1, Math.round(Number(args.duration))) : args.quick ? 3 : 10,
  warmup: args.quick ? 1 : 3,
  quietWaitMs: args.quick ? 0 : 20_000,
};
const only = args.only?.split(',');
const wanted = (key: string) => !only || only.includes(key);
/** Anything but the window rows: the REST part (baseline and pim under load) runs. */
const restWanted = !only || only.some((key) => key !== 'window');
const seconds = (since: number) => round((performance.now() - since) / 1000, 1);

/** Team mode's target for the tree (issue 11): 5,000 groups in ≤ 100 ms on PostgreSQL. */
function forBackend(endpoint: Endpoint): Endpoint {
  return backend === 'postgres' && endpoint.key === 'group-tree'
    ? { ...endpoint, target: { maxP50Ms: 100 } }
    : endpoint;
}

async function measureFull(ctx: Context, pim: Server): Promise<FullListOutcome> {
  const path = '/api/product?all=true';
  console.log(`  ${path}: sequential and 10 at once`);
  try {
    const probe = await send(ctx.baseUrl, 'GET', { path }, ctx.token);
    if (probe.status !== 200) return { unavailable: describe(probe) };
    if (!Array.isArray(dataOf(probe))) return { unavailable: 'data is not an array' };
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    const result = await measureFullList(ctx.baseUrl + path, ctx.token, pim.pid, {
      sequential: args.quick ? 3 : 10,
      concurrent: 10,
    });
    return { result, expectedItems: ctx.manifest.products };
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

function runWrkIfInstalled(
  ctx: Context,
  baseline: Server,
): Record<string, WrkResult | undefined> | undefined {
  const wrk = findWrk();
  if (!wrk) return undefined;
  console.log(`  wrk found (${wrk}): latency of the baseline and GET by id`);
  const paths = Array.from(
    { length: 1000 },
    () => `/api/product/${1 + Math.floor(Math.random() * ctx.manifest.products)}`,
  );
  const common = { paths, token: ctx.token, connections: 50, seconds: timing.duration, dir: tmpRoot };
  return {
    baseline: runWrk(wrk, { ...common, baseUrl: baseline.baseUrl }),
    'product-by-id': runWrk(wrk, { ...common, baseUrl: ctx.baseUrl }),
  };
}

const started = performance.now();
const startedAt = new Date();
const PROFILE_DIR = join(
  REPO_ROOT,
  'bench',
  '.data',
  'profiles',
  startedAt.toISOString().replace(/[:.]/g, '-'),
);
const machine = machineInfo();
console.log(`pim benchmark (${size.label}): ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}`);
const build = ensureBuilt();
if (build.state === 'failed') {
  console.error(
    `\n!!! npm run build FAILED: pim runs whatever tsc still emitted to dist/ !!!\n${build.errors}\n`,
  );
}
const dataStarted = performance.now();
const data = await prepareRunData(size);
const tmpRoot = data.root;
console.log(
  `catalogue: ${data.manifest.products} products, ${data.manifest.groups} groups (${data.cached ? 'cached' : `generated in ${data.manifest.generationSeconds} s`}; ready in ${seconds(dataStarted)} s)`,
);

const servers: Server[] = [];
const outcomes: { endpoint: Endpoint; outcome: Outcome }[] = [];
const baselineRuns: LoadResult[] = [];
let fullList: FullListOutcome = { unavailable: 'not measured' };
let wrk: Record<string, WrkResult | undefined> | undefined;
let fatal: string | undefined;
let pim: Server | undefined;
let pgDatabase: string | undefined;
let pgUrl: string | undefined;
let move: { seconds: number; output: string } | undefined;
let nightly: NightlySyncResult | undefined;
let bulkLoad: BulkLoadResult | undefined;
let bmecatExport: BmecatExportResult | undefined;
let bmecatImport: BmecatImportResult | undefined;
let massEdit: MassEditResult | undefined;
const spreadsheets: SpreadsheetExportResult[] = [];
const spreadsheetImports: SpreadsheetImportResult[] = [];
let importReads: ImportReadsResult | undefined;
let fairness: FairnessResult | undefined;
const exportFairness: FairnessResult[] = [];
let lockWait: LockWaitResult | undefined;
let pgWriters: PgWritersResult | undefined;
let windowResult: WindowResult | undefined;
let accessLog: AccessLogResult | undefined;
const pimNodeArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/**
 * GET by id once more on a pim without the access log (PIM_LOG_LEVEL=warn), beside the same row
 * measured with it (issue 34). Last of the rows: it restarts pim, which then runs without its log.
 */
async function measureAccessLog(ctx: Context): Promise<AccessLogResult> {
  const byId = READ_ENDPOINTS.find((e) => e.key === 'product-by-id')!;
  const on =
    outcomes.find((o) => o.endpoint.key === 'product-by-id')?.outcome ??
    (await measureEndpoint(byId, ctx, timing, pim!));
  console.log('  access log vs off: pim restarted with PIM_LOG_LEVEL=warn');
  await pim!.stop();
  pim = await startPim(data.dataDir, join(tmpRoot, 'pim-log-off.log'), {
    nodeArgs: pimNodeArgs,
    logOff: true,
  });
  servers.push(pim);
  const token = await login(pim.baseUrl, ADMIN.username, ADMIN.password);
  const off = await measureEndpoint(byId, { ...ctx, baseUrl: pim.baseUrl, token }, timing, pim);
  return { on, off };
}
/** The REST part: the bare baseline and pim under load, row by row, then the baseline again. */
async function measureRest(): Promise<void> {
  const baseline = await startBaseline();
  servers.push(baseline);
  pim = await startPim(data.dataDir, join(tmpRoot, 'pim.log'), { nodeArgs: pimNodeArgs });
  servers.push(pim);
  const token = await login(pim.baseUrl, ADMIN.username, ADMIN.password);
  const ctx: Context = {
    baseUrl: pim.baseUrl,
    token,
    manifest: data.manifest,
    runId: startedAt.getTime().toString(36),
  };
  console.log(`measuring: warm-up ${timing.warmup} s, then ${timing.duration} s per endpoint`);
  console.log('  baseline (bare node:http): 50 connections');
  baselineRuns.push(await measureBaseline(baseline, ctx, timing));
  for (const endpoint of READ_ENDPOINTS.filter((e) => wanted(e.key))) {
    outcomes.push({ endpoint, outcome: await measureEndpoint(endpoint, ctx, timing, pim) });
  }
  if (wanted('full-list')) fullList = await measureFull(ctx, pim);
  const randomId = () => ctx.manifest.firstId + Math.floor(Math.random() * ctx.manifest.products);
  if (wanted('fairness')) {
    console.log('  fairness: GET by id while 10 full lists stream');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    fairness = await measureFairness(ctx.baseUrl, ctx.token, randomId, fullLists(10));
  }
  // An export read as fast as it is written never waits for its client: it must give turns itself.
  for (const [key, format, name] of [
    ['export-fairness-csv', 'csv', 'a CSV export'],
    ['export-fairness-bmecat', '2005.1', 'a BMEcat export'],
  ] as const) {
    if (!wanted(key)) continue;
    console.log(`  fairness: GET by id while ${name} of the catalogue streams`);
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    exportFairness.push(
      await measureFairness(ctx.baseUrl, ctx.token, randomId, {
        paths: [`/api/export?format=${format}`],
        streaming: `${name} of the catalogue streams`,
      }),
    );
  }
  // SQLite's write lock (issue 34): a wait for it stopped the whole server. On PostgreSQL a
  // write waiting for a lock holds one pooled connection, never the event loop.
  if (wanted('lock-wait') && backend === 'sqlite') {
    console.log('  lock wait: GET by id while another process holds the write lock for 3 s');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    const m = ctx.manifest;
    lockWait = await measureLockWait(
      ctx.baseUrl,
      ctx.token,
      () => m.firstId + Math.floor(Math.random() * m.products),
      {
        holdMs: 3000,
        runId: ctx.runId,
      },
    );
  }
  // Issue 34: PostgreSQL writers of two instances must not queue on one row.
  if (wanted('pg-writers') && pgUrl) {
    console.log('  PostgreSQL writers: 50 connections of POST on one instance, then on two');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    pgWriters = await measurePgWriters({ ...ctx, pid: pim.pid }, pgUrl, ctx.runId, timing.duration);
  }
  for (const endpoint of LATER_ENDPOINTS.filter((e) => wanted(e.key)).map(forBackend)) {
    outcomes.push({ endpoint, outcome: await measureEndpoint(endpoint, ctx, timing, pim) });
  }
  if (wanted('nightly-sync')) {
    console.log('  nightly sync: every product by pages of 1,000');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    nightly = await measureNightlySync(ctx);
  }
  if (wanted('bulk-load')) {
    console.log('  bulk load: batches of 1,000 full documents');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    const products = args.quick ? 5_000 : 100_000;
    bulkLoad = await measureBulkLoad(ctx, pim.pid, products, args.quick ? 20 : 60);
  }
  // The import rows need the export's file: it is made when any of the three is asked for.
  if (wanted('bmecat-export') || wanted('bmecat-import') || wanted('bmecat-import-reads')) {
    console.log('  BMEcat export: GET /api/export?format=2005.1');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    const exported = await measureBmecatExport(ctx, pim.pid, join(tmpRoot, 'export.xml'));
    if (wanted('bmecat-export')) bmecatExport = exported;
    const products = args.quick ? 2_000 : 10_000;
    if (!exported.failed)
      await firstProducts(join(tmpRoot, 'export.xml'), join(tmpRoot, 'import.xml'), products);
    if (wanted('bmecat-import') && !exported.failed) {
      console.log(
        `  BMEcat import: the export's first ${products.toLocaleString('en')} products into a new workspace`,
      );
      await waitForQuiet(pim.pid, timing.quietWaitMs);
      bmecatImport = await measureBmecatImport(
        ctx,
        { pid: pim.pid, dataDir: data.dataDir },
        join(tmpRoot, 'import.xml'),
        `Import ${ctx.runId}`,
      );
    }
    if (wanted('bmecat-import-reads') && !exported.failed) {
      console.log(`  GET by id while the same ${products.toLocaleString('en')} products are imported`);
      await waitForQuiet(pim.pid, timing.quietWaitMs);
      const m = ctx.manifest;
      importReads = await measureImportReads(
        ctx.baseUrl,
        ctx.token,
        pim.pid,
        join(tmpRoot, 'import.xml'),
        () => m.firstId + Math.floor(Math.random() * m.products),
      );
    }
  }
  if (wanted('mass-edit')) {
    console.log('  mass edit: setFeature on half the catalogue as a job, then its undo');
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    massEdit = await measureMassEdit(ctx, pim.pid);
  }
  for (const format of ['csv', 'xlsx'] as const) {
    if (!wanted(`spreadsheet-${format}`)) continue;
    console.log(`  spreadsheet export: GET /api/export?format=${format}`);
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    spreadsheets.push(
      await measureSpreadsheetExport(ctx, pim.pid, format, join(tmpRoot, `export.${format}`)),
    );
  }
  if (wanted('spreadsheet-import')) {
    const csv = join(tmpRoot, 'catalogue.csv');
    const written = await writeCatalogueCsv(join((await ensureCatalogue(size)).dir, 'workspace.sqlite'), csv);
    for (const dryRun of [false, true]) {
      console.log(
        `  spreadsheet import: the catalogue's CSV (${written} products) back${dryRun ? ', dry run' : ''}`,
      );
      await waitForQuiet(pim.pid, timing.quietWaitMs);
      spreadsheetImports.push(await measureSpreadsheetImport(ctx, pim.pid, csv, dryRun));
    }
  }
  wrk = runWrkIfInstalled(ctx, baseline);
  if (wanted('access-log')) accessLog = await measureAccessLog(ctx);
  console.log('  baseline again (drift check)');
  baselineRuns.push(await measureBaseline(baseline, ctx, timing));
}

try {
  if (backend === 'postgres') {
    const database = await createBenchDatabase(startedAt.getTime().toString(36));
    pgDatabase = database.name;
    pgUrl = database.url;
    console.log(`moving the catalogue into PostgreSQL (${database.name}) with pim db move`);
    move = moveToPostgres(data.dataDir, database.url);
    console.log(`  moved in ${move.seconds} s`);
  }
  // First, on the catalogue as generated: the REST rows write to it (bulk-load adds 100,000 products).
  if (wanted('window')) windowResult = await measureWindowRows(data.dataDir, tmpRoot, args.quick);
  if (restWanted) await measureRest();
} catch (error) {
  fatal = error instanceof Error ? error.message : String(error);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  if (!args.keep) rmSync(tmpRoot, { recursive: true, force: true });
  if (pgDatabase && !args.keep) await dropBenchDatabase(pgDatabase);
}

const baselineRps = baselineRuns.length
  ? baselineRuns.reduce((s, r) => s + r.rps, 0) / baselineRuns.length
  : NaN;
const baselineCpus = baselineRuns.map((r) => r.serverCpuUs).filter((us): us is number => us !== undefined);
const judgedAgainst: Baseline = {
  rps: baselineRps,
  cpuUs: baselineCpus.length ? baselineCpus.reduce((s, us) => s + us, 0) / baselineCpus.length : undefined,
  cpuOfRow: (key) => outcomes.find((o) => o.endpoint.key === key)?.outcome.load?.serverCpuUs,
  endpointOfRow: (key) => outcomes.find((o) => o.endpoint.key === key)?.endpoint,
};
const rows = [
  ...outcomes
    .filter((o) => READ_ENDPOINTS.includes(o.endpoint))
    .map((o) => endpointRow(o.endpoint, o.outcome, judgedAgainst)),
  ...(wanted('full-list')
    ? fullListRows(fullList, backend === 'postgres' ? FULL_LIST_TARGET_POSTGRES : FULL_LIST_TARGET)
    : []),
  ...(fairness ? [fairnessRow(fairness)] : []),
  ...exportFairness.map(fairnessRow),
  ...(lockWait ? [lockWaitRow(lockWait)] : []),
  ...(pgWriters ? pgWritersRows(pgWriters) : []),
  ...outcomes
    .filter((o) => LATER_ENDPOINTS.some((e) => e.key === o.endpoint.key))
    .map((o) => endpointRow(o.endpoint, o.outcome, judgedAgainst)),
  ...(nightly ? [nightlySyncRow(nightly, data.manifest.products)] : []),
  ...(bulkLoad ? [bulkLoadRow(bulkLoad)] : []),
  ...(bmecatExport ? [bmecatExportRow(bmecatExport)] : []),
  ...(bmecatImport ? [bmecatImportRow(bmecatImport)] : []),
  ...(massEdit ? massEditRows(massEdit) : []),
  ...spreadsheets.map((r) => spreadsheetExportRow(r, data.manifest.products)),
  ...spreadsheetImports.map(spreadsheetImportRow),
  ...(importReads ? [importReadsRow(importReads)] : []),
  ...(accessLog ? [accessLogRow(accessLog, baselineRps)] : []),
  ...(move ? [moveRow(move.seconds)] : []),
  ...(windowResult ? windowRows(windowResult) : []),
];
function moveRow(secondsTaken: number): Row {
  return {
    endpoint: `pim db move: ${data.manifest.products.toLocaleString('en')} products into PostgreSQL`,
    p50: Math.round(secondsTaken * 1000),
    sequential: true,
    target: '≤ 60 s',
    verdict: secondsTaken <= 60 ? 'met' : 'missed',
    note: 'p50 column: the whole move in ms (copy, counts and checksums)',
  };
}
const baselineErrors = baselineRuns.reduce((s, r) => s + r.non2xx + r.errors, 0);
if (baselineRuns.length)
  console.log(
    `\nbaseline: ${Math.round(baselineRps)} req/s (runs: ${baselineRuns.map((r) => r.rps).join(', ')}), p50 ${baselineRuns[0]?.p50} ms, p99 ${baselineRuns[0]?.p99} ms, server CPU ${baselineRuns.map((r) => r.serverCpuUs).join('/')} µs/req${baselineErrors ? `, ${baselineErrors} ERRORS` : ''}\n`,
  );
for (const [name, w] of Object.entries(wrk ?? {})) {
  console.log(
    w
      ? `wrk ${name}: ${w.rps} req/s, p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms${w.non2xx ? `, ${w.non2xx} non-2xx` : ''}`
      : `wrk ${name}: no result`,
  );
}
console.log(textTable(rows));
const broken = rows.filter((r) => r.verdict === 'ERRORS' || r.verdict === 'failed');
const disturbed = rows.filter((r) => r.note?.includes('DISTURBED'));
const drift =
  baselineRuns.length === 2 ? Math.abs(baselineRuns[0]!.rps - baselineRuns[1]!.rps) / baselineRps : 0;
if (disturbed.length || drift > 0.15) {
  console.warn('\n*** the machine was not quiet: these figures are disturbed by other processes ***');
  if (drift > 0.15) console.warn(`*** the two baseline runs differ by ${Math.round(drift * 100)} %`);
  for (const row of disturbed) console.warn(`*** ${row.endpoint}: ${/DISTURBED[^;]*/.exec(row.note!)?.[0]}`);
  console.warn('*** rerun when nothing else runs on this machine\n');
}
if (fatal || broken.length || baselineErrors) {
  console.error('\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  if (fatal) console.error(`!!! the run stopped: ${fatal}`);
  if (baselineErrors)
    console.error(`!!! the baseline answered ${baselineErrors} errors: its figures are not comparable`);
  for (const row of broken) console.error(`!!! ${row.endpoint}: ${row.note ?? row.verdict}`);
  for (const { outcome } of outcomes.filter((o) => o.outcome.serverLog)) {
    console.error(`--- pim log during ${outcome.label}:\n${outcome.serverLog}`);
  }
  if (pim && pim.exitCode() !== null && pim.exitCode() !== 0 && pim.exitCode() !== 'SIGTERM') {
    console.error(`--- pim exited (${pim.exitCode()}):\n${pim.output().slice(-3000)}`);
  }
  console.error('!!! figures of a run with errors are not a measurement of a working server');
  console.error('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n');
  process.exitCode = 1;
}
const profile = profilesIn(PROFILE_DIR)
  .map((file) => summariseProfile(file))
  .join('\n\n');
if (profile) console.log(`\n${profile}`);
const files = writeResults(
  {
    mode: size.label,
    db: backend,
    move,
    nightly,
    bulkLoad,
    fairness,
    exportFairness,
    importReads,
    lockWait,
    pgWriters,
    window: windowResult,
    accessLog,
    startedAt: startedAt.toISOString(),
    totalSeconds: seconds(started),
    machine,
    build,
    timing,
    data: { manifest: data.manifest, cached: data.cached },
    baseline: { rps: Math.round(baselineRps), runs: baselineRuns },
    endpoints: Object.fromEntries(outcomes.map((o) => [o.endpoint.key, o.outcome])),
    fullList,
    wrk,
    fatal,
    profile: profile || undefined,
    disturbance: {
      baselineDrift: round(drift, 3),
      disturbed: disturbed.map((r) => r.endpoint),
      loadAverage: loadavg(),
    },
    rows,
  },
  !only && !args.duration && !args.profile,
);
console.log(`\nresults: ${files.join(', ')}`);
console.log(`total ${seconds(started)} s`);
