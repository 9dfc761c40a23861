/**
 * Paired before/after runs of the spreadsheet export and import (issue 36 point 8), for a machine
 * shared with other work: `node --import tsx bench/spreadsheet-ab.ts --a=DIR [--b=DIR] [--rounds=3]
 * [--formats=csv,xlsx,import] [--db sqlite|postgres]`. DIR is a built checkout (another commit's
 * worktree; --b defaults to this one). Each round starts pim from each side in turn (alternating
 * which goes first) and runs each format once: `csv` and `xlsx` export the whole catalogue with the
 * default columns (the first export paying the feature languages as a user's first export does),
 * `import` sends bench/lib/spreadsheet-import.ts's CSV of the catalogue back (every product
 * unchanged) as a job and waits for its end, `reimport` the file `csv` wrote in the same run (the
 * export's own columns: every feature; after `csv`). On SQLite each run has a fresh copy of the benchmark
 * catalogue, its data folder made by the side's own code from its own cached catalogue (bench/.data
 * in DIR: the cache key follows the migrations). On PostgreSQL the catalogue is moved once (`pim db
 * move`, by side B) into a database of its own that every run uses in turn: the rows read or write
 * nothing, and both sides must have the same migrations (checked). Prints pim's CPU seconds (utime
 * + stime: steadier than wall time when others use the machine), PostgreSQL's (the postgres
 * processes alive at both ends: others' included, and a backend that ended meanwhile takes its
 * time with it, so it can even come out negative: a rough figure), the wall time, the peak RSS and the load average.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { ADMIN, SIZES } from './config.js';
import { ensureCatalogue } from './generate.js';
import { login } from './lib/http.js';
import { createBenchDatabase, dropBenchDatabase } from './lib/postgres.js';
import { TICKS_PER_SECOND, databaseBusy, processTimes } from './lib/proc-stat.js';
import { REPO_ROOT, startServer } from './lib/processes.js';
import { RssWatch } from './lib/rss.js';
import { measureSpreadsheetImport, writeCatalogueCsv } from './lib/spreadsheet-import.js';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: REPO_ROOT },
    rounds: { type: 'string', default: '3' },
    formats: { type: 'string', default: 'csv,xlsx' },
    db: { type: 'string', default: 'sqlite' },
  },
});
if (!args.a) throw new Error('--a=DIR: a built checkout to compare with');
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');
const sides = { A: resolve(args.a), B: resolve(args.b!) };
const formats = args.formats!.split(',');

/**
 * A data folder on a copy of the side's own cached catalogue, made by the side's code: the
 * catalogue's cache key and the workspace's migrations are that commit's.
 */
function runData(dir: string): { root: string; dataDir: string } {
  const script = `const { prepareRunData } = await import('./bench/generate.ts');
    const { SIZES } = await import('./bench/config.ts');
    const { root, dataDir } = await prepareRunData(SIZES.full);
    console.log(JSON.stringify({ root, dataDir }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { root: string; dataDir: string };
}

const cpuSeconds = (pid: number) => (processTimes(pid)?.own ?? 0) / TICKS_PER_SECOND;
const round2 = (n: number) => Math.round(n * 100) / 100;

interface Result {
  side: string;
  round: number;
  format: string;
  cpu: number;
  /** PostgreSQL's processes (every one on the machine); 0 on SQLite. */
  dbCpu: number;
  wall: number;
  peakMb: number;
  load: number;
}
const results: Result[] = [];

const migrations = (dir: string) => readdirSync(join(dir, 'src/db/migrations')).sort().join(',');
if (args.db === 'postgres' && migrations(sides.A) !== migrations(sides.B))
  throw new Error('--db postgres: the sides have other migrations (one moved catalogue serves both)');

// The import's file: the cached catalogue as CSV, written once for every run.
const scratch = runData(sides.B);
const catalogue = await ensureCatalogue(SIZES.full);
const csvFile = join(scratch.root, 'catalogue.csv');
if (formats.includes('import')) await writeCatalogueCsv(join(catalogue.dir, 'workspace.sqlite'), csvFile);

let database: { name: string; url: string } | undefined;
if (args.db === 'postgres') {
  database = await createBenchDatabase(`ab_${Date.now()}`);
  execFileSync(
    process.execPath,
    ['bin/pim.js', '--data-dir', scratch.dataDir, 'db', 'move', '--to', database.url],
    {
      cwd: sides.B,
      env: { ...process.env, PIM_DATABASE_URL: '', PIM_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** One export or import on a running pim. */
async function measure(
  pim: { pid: number; baseUrl: string },
  token: string,
  format: string,
  root: string,
): Promise<void> {
  if (format === 'import' || format === 'reimport') {
    // measureSpreadsheetImport reads the base URL and the token of its context only.
    const ctx = { baseUrl: pim.baseUrl, token, manifest: catalogue.manifest, runId: '' };
    const file = format === 'import' ? csvFile : join(root, 'x.csv');
    const outcome = await measureSpreadsheetImport(ctx, pim.pid, file, false);
    if (outcome.failed || outcome.unchanged !== outcome.rows)
      throw new Error(`import: ${outcome.failed ?? `${outcome.unchanged} of ${outcome.rows} unchanged`}`);
    return;
  }
  const response = await fetch(`${pim.baseUrl}/api/export?format=${format}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200 || !response.body) throw new Error(await response.text());
  await pipeline(Readable.fromWeb(response.body as never), createWriteStream(join(root, `x.${format}`)));
}

try {
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
    for (const side of order) {
      const { root, dataDir } = database ? scratch : runData(sides[side]);
      const pim = await startServer(
        'pim',
        ['bin/pim.js', '--data-dir', dataDir, 'start', '--port', '0'],
        /REST API listening on (http:\/\/\S+)\/api/,
        {},
        join(root, 'pim.log'),
        sides[side],
      );
      try {
        const token = await login(pim.baseUrl, ADMIN.username, ADMIN.password);
        for (const format of formats) {
          const rss = new RssWatch(pim.pid, 50);
          const cpu = cpuSeconds(pim.pid);
          const dbCpu = databaseBusy();
          const started = performance.now();
          await measure(pim, token, format, root);
          const result: Result = {
            side,
            round,
            format,
            cpu: round2(cpuSeconds(pim.pid) - cpu),
            dbCpu: database ? round2((databaseBusy() - dbCpu) / TICKS_PER_SECOND) : 0,
            wall: Math.round(performance.now() - started) / 1000,
            peakMb: Math.round(rss.stop().peakMb),
            load: round2(loadavg()[0]!),
          };
          results.push(result);
          console.log(JSON.stringify(result));
        }
      } finally {
        await pim.stop();
        if (!database) rmSync(root, { recursive: true, force: true });
      }
    }
  }
} finally {
  if (database) await dropBenchDatabase(database.name);
  rmSync(scratch.root, { recursive: true, force: true });
}

const sorted = (list: number[]) => [...list].sort((x, y) => x - y);
for (const format of formats) {
  for (const side of ['A', 'B'] as const) {
    const mine = results.filter((r) => r.side === side && r.format === format);
    const cpu = sorted(mine.map((r) => r.cpu));
    const dbCpu = sorted(mine.map((r) => r.dbCpu));
    const wall = sorted(mine.map((r) => r.wall));
    const rss = sorted(mine.map((r) => r.peakMb));
    console.log(
      `${format} ${side} (${sides[side]}): CPU s ${cpu.join(' ')} (median ${cpu[cpu.length >> 1]})` +
        `${database ? `, PostgreSQL CPU s ${dbCpu.join(' ')}` : ''}, wall s ${wall.join(' ')}, peak RSS MB ${rss.join(' ')}`,
    );
  }
}
