/**
 * Paired before/after runs of the spreadsheet export (issue 36 point 8), for a machine shared with
 * other work: `node --import tsx bench/spreadsheet-ab.ts --a=DIR [--b=DIR] [--rounds=3] [--formats=csv,xlsx]`.
 * DIR is a built checkout (another commit's worktree; --b defaults to this one). Each round starts pim
 * from each side in turn (alternating which goes first) on a fresh copy of the benchmark catalogue and
 * exports the whole catalogue with the default columns in each format, the first export paying the
 * feature languages as a user's first export does. Each side's data folder is made by its own code from
 * its own cached catalogue (bench/.data in DIR: the cache key follows the migrations). Prints pim's CPU seconds (utime + stime: steadier
 * than wall time when others use the machine), the wall time, the peak RSS and the load average.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { ADMIN } from './config.js';
import { login } from './lib/http.js';
import { TICKS_PER_SECOND, processTimes } from './lib/proc-stat.js';
import { REPO_ROOT, startServer } from './lib/processes.js';
import { RssWatch } from './lib/rss.js';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: REPO_ROOT },
    rounds: { type: 'string', default: '3' },
    formats: { type: 'string', default: 'csv,xlsx' },
  },
});
if (!args.a) throw new Error('--a=DIR: a built checkout to compare with');
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

interface Result {
  side: string;
  round: number;
  format: string;
  cpu: number;
  wall: number;
  peakMb: number;
  load: number;
}
const results: Result[] = [];

for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
  for (const side of order) {
    const { root, dataDir } = runData(sides[side]);
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
        const started = performance.now();
        const response = await fetch(`${pim.baseUrl}/api/export?format=${format}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (response.status !== 200 || !response.body) throw new Error(await response.text());
        await pipeline(
          Readable.fromWeb(response.body as never),
          createWriteStream(join(root, `x.${format}`)),
        );
        const result: Result = {
          side,
          round,
          format,
          cpu: Math.round((cpuSeconds(pim.pid) - cpu) * 100) / 100,
          wall: Math.round(performance.now() - started) / 1000,
          peakMb: Math.round(rss.stop().peakMb),
          load: Math.round(loadavg()[0]! * 100) / 100,
        };
        results.push(result);
        console.log(JSON.stringify(result));
      }
    } finally {
      await pim.stop();
      rmSync(root, { recursive: true, force: true });
    }
  }
}

for (const format of formats) {
  for (const side of ['A', 'B'] as const) {
    const mine = results.filter((r) => r.side === side && r.format === format);
    const cpu = mine.map((r) => r.cpu).sort((x, y) => x - y);
    const rss = mine.map((r) => r.peakMb).sort((x, y) => x - y);
    console.log(
      `${format} ${side} (${sides[side]}): CPU s ${cpu.join(' ')} (median ${cpu[cpu.length >> 1]}), peak RSS MB ${rss.join(' ')}`,
    );
  }
}
