/**
 * The access log's cost, paired: `node --import tsx bench/log-ab.ts [--quick] [--rounds=N] [--seconds=S]`.
 * Two pim processes on two copies of the catalogue, one as users run it (default log level, its log
 * appended to a file), one with PIM_LOG_LEVEL=warn; GET by id loads them in turn, N rounds of S
 * seconds each, and the median CPU per GET of each is compared. Alternating every few seconds puts
 * both under the same load from other processes: on a shared machine a single run of each (the
 * bench's access-log row) moves by ±20 %, more than the difference it is after.
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
  },
});
const size = args.quick ? SIZES.quick : SIZES.full;
const rounds = Math.max(1, Number(args.rounds));
const seconds = Math.max(1, Number(args.seconds));

if (ensureBuilt().state === 'failed') throw new Error('npm run build failed');
const on = await prepareRunData(size);
const off = await prepareRunData(size);
const servers: Server[] = [];
try {
  const withLog = await startPim(on.dataDir, join(on.root, 'pim.log'));
  servers.push(withLog);
  const withoutLog = await startPim(off.dataDir, join(off.root, 'pim.log'), { logOff: true });
  servers.push(withoutLog);
  const sides = await Promise.all(
    [withLog, withoutLog].map(async (server) => ({
      server,
      token: await login(server.baseUrl, ADMIN.username, ADMIN.password),
      cpuUs: [] as number[],
    })),
  );
  const m = on.manifest;
  const next = () => ({ path: `/api/product/${m.firstId + Math.floor(Math.random() * m.products)}` });
  console.log(
    `GET by id, ${size.label} catalogue, ${rounds} rounds of ${seconds} s each way (50 connections)`,
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
    console.log(`  round ${round + 1}: ${line.join(', ')}`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const [logUs, offUs] = sides.map((side) => median(side.cpuUs));
  console.log(
    `median CPU per GET: access log ${logUs} µs, off ${offUs} µs: ${((logUs! / offUs! - 1) * 100).toFixed(1)} %`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const root of [on.root, off.root]) rmSync(root, { recursive: true, force: true });
}
