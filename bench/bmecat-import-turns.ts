/**
 * How long a BMEcat import keeps the event loop from other work (issue 35): imports FILE into a
 * fresh workspace in this process (as `pim import` does) while a 1 ms timer notes every turn of the
 * event loop it gets. Prints the wall time between turns and the CPU time the process used between
 * them: on a loaded machine the wall time is mostly the scheduler's, the CPU time is the import's
 * (it includes V8's helper threads, so it is an upper bound).
 *
 *   node --import tsx bench/bmecat-import-turns.ts FILE [--pg=postgres://...] [--rounds=N]
 *
 * FILE: e.g. bench/.data/bmecat/products-5000-v1.xml, which bench/bmecat-import-speed.ts writes.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Application } from '../src/app/application.js';
import { saveDatabaseUrl } from '../src/db/database-config.js';
import { importBmecat } from '../src/interchange/bmecat/bmecat-import.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { pg: { type: 'string' }, rounds: { type: 'string', default: '1' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: bench/bmecat-import-turns.ts FILE [--pg=URL] [--rounds=N]');

const quantile = (sorted: number[], q: number) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(1);
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

for (let round = 1; round <= Number(values.rounds); round++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'pim-bench-turns-'));
  if (values.pg) saveDatabaseUrl(dataDir, values.pg);
  const app = await Application.open({ dataDir });
  try {
    const ws = await app.workspaces.create(app.ownerContext(), { name: 'Turns', language: 'deu' });
    await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
    const wall: number[] = [];
    const cpu: number[] = [];
    let last = performance.now();
    let lastCpu = process.cpuUsage();
    let importing = true;
    const tick = () => {
      const now = performance.now();
      wall.push(now - last);
      cpu.push(cpuMs(process.cpuUsage(lastCpu)));
      last = now;
      lastCpu = process.cpuUsage();
      if (importing) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    const started = performance.now();
    const startedCpu = process.cpuUsage();
    const report = await importBmecat(app.ownerContext(), createReadStream(file));
    const used = cpuMs(process.cpuUsage(startedCpu));
    importing = false;
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    console.log(
      `round ${round}: ${report.products} products in ${Math.round(performance.now() - started)} ms, ` +
        `${Math.round(used)} ms CPU (${Math.round(report.products / (used / 1000))} per CPU second); ` +
        `between turns: wall p50 ${quantile(wall, 0.5)} p99 ${quantile(wall, 0.99)} max ${quantile(wall, 1)} ms, ` +
        `CPU p50 ${quantile(cpu, 0.5)} p99 ${quantile(cpu, 0.99)} max ${quantile(cpu, 1)} ms ` +
        `(${wall.length} turns); load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
