/**
 * BMEcat export speed (issue 35, point 9: 50,000 products a second, bounded memory): exportBmecat
 * in-process over a whole catalogue, the document written to /dev/null, as `pim export -` does.
 * Each measurement runs in a child process of its own so that its peak RSS and CPU time are its own.
 *
 *   node --import tsx bench/bmecat-export-speed.ts [--a=DIR] [--b=DIR] [--rounds=3]
 *     [--catalogue=full|import] [--products=20000] [--db=sqlite|postgres] [--profile=DIR] [--verify]
 *
 * `--catalogue=full` (default) exports the benchmark catalogue (bench/.data, 100,000 products, no kept
 * fragments), copied to a temporary data folder; `import` a workspace filled by importing the file
 * bench/bmecat-import-speed.ts generates (`--products`; kept prices and order details, MIME entries,
 * keywords, feature systems: the kept-fragment paths). With `--a=DIR` each round measures side A (a
 * checkout of another commit, e.g. a detached worktree of the base) and side B (this checkout, or
 * `--b`) in turn, alternating which goes first, on the same data folder: both sides must read the
 * same migrations. `--verify` first exports once per side and compares the documents' SHA-256 (the
 * GENERATION_DATE left out). `--profile=DIR` writes a CPU profile of each of side B's runs there.
 * Prints per run: products a second (wall), CPU µs a product (user + system of the child), the RSS
 * when the export starts and at most during it (sampled after each chunk), the process's peak RSS
 * (opening the benchmark workspace alone reaches about 500 MB under tsx), the load average and, on
 * PostgreSQL, its processes' CPU seconds over the export (every postgres process alive at its end,
 * others' work included: a rough figure); then medians per side. Each side's dist/ must be built (`npx tsc -p
 * tsconfig.build.json`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { TICKS_PER_SECOND, databaseBusy } from './lib/proc-stat.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: ROOT },
    rounds: { type: 'string', default: '3' },
    catalogue: { type: 'string', default: 'full' },
    products: { type: 'string', default: '20000' },
    db: { type: 'string', default: 'sqlite' },
    profile: { type: 'string' },
    verify: { type: 'boolean', default: false },
    // In the child:
    child: { type: 'boolean', default: false },
    src: { type: 'string' },
    data: { type: 'string' },
    hash: { type: 'boolean', default: false },
    pg: { type: 'boolean', default: false },
  },
});

interface ChildResult {
  products: number;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  /** The process's peak RSS (opening the workspace included). */
  peakRssMb: number;
  /** RSS when the export starts, and its highest value seen after each chunk of the export. */
  startRssMb: number;
  exportRssMb: number;
  /** PostgreSQL's CPU seconds over the export (with --pg), 0 on SQLite. */
  dbCpuSeconds: number;
  sha256?: string;
}

/**
 * In the child: one export by the built code (dist/, as `pim export` runs it: tsx's transform adds
 * a naming call to every closure) of checkout `src`, printed as JSON on the last line.
 */
async function child(src: string, dataDir: string, hash: boolean, pg: boolean): Promise<void> {
  const load = (path: string) => import(pathToFileURL(join(src, path)).href);
  const { Application } = await load('dist/app/application.js');
  const { workspaceContext } = await load('dist/cli/commands/with-app.js');
  const { exportBmecat, newExportReport } = await load('dist/interchange/bmecat/bmecat-export.js');
  const app = await Application.open({ dataDir });
  try {
    const ctx = await workspaceContext(app, undefined);
    const report = newExportReport('2005');
    const out = openSync('/dev/null', 'w');
    const digest = createHash('sha256');
    let bytes = 0;
    const startRss = process.memoryUsage.rss();
    let exportRss = startRss;
    // Read here, not by the parent: the export's backends end with this process, and their time with them.
    const dbBefore = pg ? databaseBusy() : 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    for await (const chunk of exportBmecat(ctx, {}, report) as AsyncIterable<string>) {
      bytes += chunk.length;
      if (hash) digest.update(chunk.replace(/<GENERATION_DATE>[^<]*<\/GENERATION_DATE>/, ''));
      else writeSync(out, chunk);
      exportRss = Math.max(exportRss, process.memoryUsage.rss());
    }
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const dbCpuSeconds = pg ? (databaseBusy() - dbBefore) / TICKS_PER_SECOND : 0;
    closeSync(out);
    const result: ChildResult = {
      products: report.products,
      bytes,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      startRssMb: Math.round(startRss / 2 ** 20),
      exportRssMb: Math.round(exportRss / 2 ** 20),
      dbCpuSeconds,
      ...(hash ? { sha256: digest.digest('hex') } : {}),
    };
    console.log(JSON.stringify(result));
  } finally {
    await app.stop();
  }
}

function measure(side: string, dataDir: string, options: { hash?: boolean; profile?: string }): ChildResult {
  const run = spawnSync(
    process.execPath,
    [
      ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : []),
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--child',
      `--src=${side}`,
      `--data=${dataDir}`,
      ...(options.hash ? ['--hash'] : []),
      ...(args.db === 'postgres' ? ['--pg'] : []),
    ],
    { cwd: side, encoding: 'utf8', env: { ...process.env, PIM_LOG_LEVEL: 'warn' }, maxBuffer: 64 * 2 ** 20 },
  );
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !last.startsWith('{'))
    throw new Error(`export by ${side} failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(last) as ChildResult;
}

/** A data folder holding the catalogue to export (made by this checkout's code), and its clean-up. */
async function prepare(): Promise<{ dataDir: string; cleanUp: () => Promise<void> }> {
  const { createBenchDatabase, dropBenchDatabase, moveToPostgres } = await import('./lib/postgres.js');
  const postgres = args.db === 'postgres' ? await createBenchDatabase(`export_${process.pid}`) : undefined;
  let root: string;
  let dataDir: string;
  if (args.catalogue === 'full') {
    const { prepareRunData } = await import('./generate.js');
    const { SIZES } = await import('./config.js');
    ({ root, dataDir } = await prepareRunData(SIZES.full));
    if (postgres) moveToPostgres(dataDir, postgres.url);
  } else {
    const { generate } = await import('./bmecat-import-speed.js');
    const { Application } = await import('../src/app/application.js');
    const { saveDatabaseUrl } = await import('../src/db/database-config.js');
    const { importBmecat } = await import('../src/interchange/bmecat/bmecat-import.js');
    const file = await generate(Number(args.products));
    root = mkdtempSync(join(tmpdir(), 'pim-bench-export-'));
    dataDir = join(root, 'data');
    if (postgres) saveDatabaseUrl(dataDir, postgres.url);
    const app = await Application.open({ dataDir });
    try {
      const ws = await app.workspaces.create(app.ownerContext(), { name: 'Export bench', language: 'deu' });
      await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
      await importBmecat(app.ownerContext(), createReadStream(file));
    } finally {
      await app.stop();
    }
  }
  return {
    dataDir,
    cleanUp: async () => {
      if (postgres) await dropBenchDatabase(postgres.name);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const load = () => loadavg()[0]!;
const median = (list: number[]) => [...list].sort((x, y) => x - y)[list.length >> 1]!;
const migrations = (dir: string) => readdirSync(join(dir, 'src/db/migrations')).sort().join(',');

async function main(): Promise<void> {
  if (args.child) {
    await child(args.src!, args.data!, args.hash!, args.pg!);
    return;
  }
  if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');
  if (args.catalogue !== 'full' && args.catalogue !== 'import')
    throw new Error('--catalogue is full or import');
  const sides: Record<string, string> = { B: resolve(args.b!) };
  if (args.a) sides.A = resolve(args.a);
  if (sides.A && migrations(sides.A) !== migrations(sides.B!))
    throw new Error('the sides have other migrations: one data folder cannot serve both');
  const { dataDir, cleanUp } = await prepare();
  const results: (ChildResult & { side: string; load: number })[] = [];
  const postgres = args.db === 'postgres';
  try {
    console.log(`catalogue ${args.catalogue}, db ${args.db}, load average ${loadavg().join(' ')}`);
    if (args.verify) {
      const hashes = Object.entries(sides).map(([side, dir]) => [
        side,
        measure(dir, dataDir, { hash: true }),
      ]);
      for (const [side, r] of hashes) console.log(`verify ${side}: ${JSON.stringify(r)}`);
      if (new Set(hashes.map(([, r]) => (r as ChildResult).sha256)).size > 1)
        throw new Error('the sides wrote different documents');
    }
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = Object.keys(sides).sort();
      if (round % 2 === 1) order.reverse();
      for (const side of order) {
        const profile = side === 'B' ? args.profile : undefined;
        const r = measure(sides[side]!, dataDir, profile ? { profile } : {});
        results.push({ ...r, side, load: load() });
        console.log(
          `round ${round + 1} ${side}: ${Math.round(r.products / r.seconds)} products/s (${r.seconds.toFixed(2)} s), ` +
            `${((r.cpuSeconds / r.products) * 1e6).toFixed(1)} µs CPU a product (${r.cpuSeconds.toFixed(2)} s), ` +
            (postgres ? `PostgreSQL ${r.dbCpuSeconds.toFixed(2)} CPU s, ` : '') +
            `RSS ${r.startRssMb} MB at the start, ${r.exportRssMb} MB at most in the export, ${r.peakRssMb} MB peak of the process, ${r.products} products, ${(r.bytes / 2 ** 20).toFixed(0)} MiB, load ${load().toFixed(2)}`,
        );
      }
    }
  } finally {
    await cleanUp();
  }
  for (const side of Object.keys(sides).sort()) {
    const mine = results.filter((r) => r.side === side);
    if (mine.length === 0) continue;
    const loads = mine.map((r) => r.load);
    console.log(
      `${side} (${sides[side]}): median ${Math.round(median(mine.map((r) => r.products / r.seconds)))} products/s, ` +
        `${median(mine.map((r) => (r.cpuSeconds / r.products) * 1e6)).toFixed(1)} µs CPU a product, ` +
        (postgres ? `PostgreSQL ${median(mine.map((r) => r.dbCpuSeconds)).toFixed(2)} CPU s, ` : '') +
        `RSS in the export ${median(mine.map((r) => r.exportRssMb))} MB (process peak ${median(mine.map((r) => r.peakRssMb))} MB); load ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}` +
        (Math.max(...loads) > 1.5 ? ' (DISTURBED)' : ''),
    );
  }
}

await main();
