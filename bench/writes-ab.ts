/**
 * Single writes paired before/after (issue 34, "How 3"), for a machine shared with other work:
 * `node --import tsx bench/writes-ab.ts --a=DIR [--b=DIR] [--rounds=6] [--seconds=4] [--rows=post,put]`.
 * DIR is a built checkout (another commit's tree with node_modules and bench/.data linked; --b
 * defaults to this one). Both sides run at once, each `pim start` on its own copy of the full
 * catalogue made by its own code, as users run it (default log level, the log to a file); each round
 * loads POST /api/product and PUT /api/product/{id}/texts/short/deu on one side and then the other
 * (which goes first alternates), 50 connections, so both meet the same load from other processes.
 * Prints pim's CPU µs per request for each (all of its threads: work moved to another thread still
 * counts) and the throughput (what the event loop gets through), the medians over the rounds, the
 * load average, and at the end the size of each side's WAL file.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN } from './config.js';
import { login } from './lib/http.js';
import { runLoad, type RequestSpec } from './lib/load.js';
import { REPO_ROOT, startServer, type Server } from './lib/processes.js';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: REPO_ROOT },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    rows: { type: 'string', default: 'post,put' },
  },
});
if (!args.a) throw new Error('--a=DIR: a built checkout to compare with');
const rounds = Math.max(1, Number(args.rounds));
const seconds = Math.max(1, Number(args.seconds));
const rows = args.rows!.split(',');

interface RunData {
  root: string;
  dataDir: string;
  manifest: { firstId: number; products: number };
}

/** A data folder on a copy of the side's cached catalogue, made by the side's own code (spreadsheet-ab.ts). */
function runData(dir: string): RunData {
  const script = `const { prepareRunData } = await import('./bench/generate.ts');
    const { SIZES } = await import('./bench/config.ts');
    const { root, dataDir, manifest } = await prepareRunData(SIZES.full);
    console.log(JSON.stringify({ root, dataDir, manifest }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as RunData;
}

/** The WAL files under `root` and their sizes in MB. */
function walSizes(root: string): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'workspace.sqlite-wal') {
        found.push(`${(statSync(path).size / 1e6).toFixed(1)} MB`);
      }
    }
  };
  walk(root);
  return found.join(', ') || 'none';
}

interface Side {
  name: string;
  data: RunData;
  server: Server;
  token: string;
  cpu: Record<string, number[]>;
  rps: Record<string, number[]>;
}

const runId = Date.now().toString(36);
let n = 0;
const loads: Record<string, (side: Side) => { method: 'POST' | 'PUT'; next: () => RequestSpec }> = {
  post: () => ({
    method: 'POST',
    next: () => ({
      path: '/api/product',
      body: JSON.stringify({ supplierPid: `AB-${runId}-${++n}`, name: `Artikel ${n}`, language: 'deu' }),
    }),
  }),
  put: (side) => ({
    method: 'PUT',
    next: () => ({
      path: `/api/product/${side.data.manifest.firstId + Math.floor(Math.random() * side.data.manifest.products)}/texts/short/deu`,
      body: JSON.stringify({ value: `Kurztext ${runId} ${++n}` }),
    }),
  }),
};

const sides: Side[] = [];
try {
  for (const [name, dir] of [
    ['A', resolve(args.a)],
    ['B', resolve(args.b!)],
  ] as const) {
    const data = runData(dir);
    const server = await startServer(
      `pim ${name}`,
      ['bin/pim.js', '--data-dir', data.dataDir, 'start', '--port', '0'],
      /REST API listening on (http:\/\/\S+)\/api/,
      {},
      join(data.root, 'pim.log'),
      dir,
    );
    const token = await login(server.baseUrl, ADMIN.username, ADMIN.password);
    sides.push({ name, data, server, token, cpu: {}, rps: {} });
  }
  console.log(
    `A ${resolve(args.a)}, B ${resolve(args.b!)}: ${rounds} rounds of ${seconds} s per row and side`,
  );
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      const line: string[] = [];
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const { method, next } = loads[row]!(side);
        const load = await runLoad({
          baseUrl: side.server.baseUrl,
          method,
          connections: 50,
          duration: seconds,
          warmup: 1,
          headers: { authorization: `Bearer ${side.token}` },
          next,
          pid: side.server.pid,
        });
        if (load.non2xx || load.errors) {
          throw new Error(`${side.name} ${row}: ${load.non2xx} non-2xx, ${load.errors} errors`);
        }
        (side.cpu[row] ??= []).push(load.serverCpuUs ?? NaN);
        (side.rps[row] ??= []).push(load.rps);
        line.push(`${side.name} ${load.serverCpuUs} µs ${load.rps}/s`);
      }
      console.log(`  round ${round + 1} ${row}: ${line.join(', ')}; load ${loadavg()[0]!.toFixed(2)}`);
    }
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;
  for (const row of rows) {
    const [a, b] = sides.map((side) => median(side.cpu[row]!));
    console.log(`median CPU µs per ${row}: A ${a}, B ${b} (${((b! / a! - 1) * 100).toFixed(1)} %)`);
    const [ra, rb] = sides.map((side) => median(side.rps[row]!));
    console.log(`median ${row}/s: A ${ra}, B ${rb} (${((rb! / ra! - 1) * 100).toFixed(1)} %)`);
  }
  for (const side of sides) console.log(`WAL of ${side.name}: ${walSizes(side.data.root)}`);
} finally {
  await Promise.all(sides.map((side) => side.server.stop()));
  for (const side of sides) rmSync(side.data.root, { recursive: true, force: true });
}
