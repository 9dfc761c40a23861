/**
 * The access log's cost, paired: `node --import tsx bench/log-ab.ts [--quick] [--rounds=N] [--seconds=S] [--pairs=P]`.
 * Two pim processes on two copies of the catalogue, one as users run it (default log level, its log
 * appended to a file), one with PIM_LOG_LEVEL=warn; GET by id loads them in turn, N rounds of S
 * seconds each, and the median CPU per GET of each is compared. Alternating every few seconds puts
 * both under the same load from other processes: on a shared machine a single run of each (the
 * bench's access-log row) moves by ±20 %, more than the difference it is after. --pairs starts P
 * fresh pairs of processes one after another (N rounds each): one process can be slower than
 * another for its whole life, whatever it runs.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN, SIZES } from './config.js';
import { prepareRunData } from './generate.js';
import { ensureBuilt } from './lib/build.js';
import { login } from './lib/http.js';
import { runLoad } from './lib/load.js';
import { startPim, type Server } from './lib/processes.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
    pairs: { type: 'string', default: '1' },
  },
});
const size = args.quick ? SIZES.quick : SIZES.full;
const rounds = Math.max(1, Number(args.rounds));
const seconds = Math.max(1, Number(args.seconds));

if (ensureBuilt().state === 'failed') throw new Error('npm run build failed');
const pairs = Math.max(1, Number(args.pairs));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const on = await prepareRunData(size);
const off = await prepareRunData(size);
const servers: Server[] = [];
const cpuUs: [number[], number[]] = [[], []];
try {
  const m = on.manifest;
  const next = () => ({ path: `/api/product/${m.firstId + Math.floor(Math.random() * m.products)}` });
  console.log(
    `GET by id, ${size.label} catalogue, ${pairs} pairs of freshly started processes, ${rounds} rounds of ${seconds} s each way per pair (50 connections)`,
  );
  for (let pair = 0; pair < pairs; pair++) {
    // Which process starts first alternates too: a process's heap layout can give it a lasting
    // handicap (docs/performance.md), so one pair alone can show a difference that is not the log's.
    const started: Server[] = [];
    for (const logOff of pair % 2 === 0 ? [false, true] : [true, false]) {
      const data = logOff ? off : on;
      const server = await startPim(data.dataDir, join(data.root, 'pim.log'), logOff ? { logOff: true } : {});
      servers.push(server);
      started[logOff ? 1 : 0] = server;
    }
    const sides = await Promise.all(
      started.map(async (server, i) => ({
        server,
        token: await login(server.baseUrl, ADMIN.username, ADMIN.password),
        cpuUs: cpuUs[i]!,
      })),
    );
    for (let round = 0; round < rounds; round++) {
      const line: string[] = [];
      // Which goes first alternates too: neither always follows the other.
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const load = await runLoad({
          baseUrl: side.server.baseUrl,
          method: 'GET',
          connections: 50,
          duration: seconds,
          warmup: round === 0 ? 2 : 1,
          headers: { authorization: `Bearer ${side.token}` },
          next,
          pid: side.server.pid,
        });
        if (load.non2xx || load.errors) throw new Error(`${load.non2xx} non-2xx, ${load.errors} errors`);
        if (load.serverCpuUs !== undefined) side.cpuUs.push(load.serverCpuUs);
        line.push(`${side === sides[0] ? 'log' : 'off'} ${load.serverCpuUs} µs (${load.rps} req/s)`);
      }
      console.log(`  pair ${pair + 1}, round ${round + 1}: ${line.join(', ')}`);
    }
    const [pairLog, pairOff] = sides.map((side) => median(side.cpuUs.slice(-rounds)));
    console.log(
      `  pair ${pair + 1}: log ${pairLog} µs, off ${pairOff} µs: ${((pairLog! / pairOff! - 1) * 100).toFixed(1)} %`,
    );
    await Promise.all(started.map((server) => server.stop()));
    servers.length = 0;
  }
  const [logUs, offUs] = cpuUs.map(median);
  console.log(
    `median CPU per GET: access log ${logUs} µs, off ${offUs} µs: ${((logUs! / offUs! - 1) * 100).toFixed(1)} %`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const root of [on.root, off.root]) rmSync(root, { recursive: true, force: true });
}
