import { TICKS_PER_SECOND, databaseBusy, machineBusy, processTimes } from './proc-stat.js';

/** CPU used during a measurement, in cores (1 = one core busy all the time). */
export interface CpuReading {
  /** The server under load. */
  server: number;
  /** This process: autocannon and the runner. */
  bench: number;
  /** The PostgreSQL server's processes (0 on SQLite, unless another PostgreSQL is busy). */
  database: number;
  /** Everything else on the machine: other work that disturbs the figures. */
  other: number;
}

/** utime + stime of a process in jiffies (0 when it is gone). */
function processBusy(pid: number): number {
  return processTimes(pid)?.own ?? 0;
}

/** Measures who used the CPU between construction and stop(); undefined where /proc is missing. */
export class CpuMeter {
  private readonly start:
    { machine: number; server: number; bench: number; database: number; at: number } | undefined;

  constructor(private readonly serverPid: number) {
    try {
      this.start = {
        machine: machineBusy(),
        server: processBusy(serverPid),
        bench: processBusy(process.pid),
        database: databaseBusy(),
        at: performance.now(),
      };
    } catch {
      this.start = undefined;
    }
  }

  stop(): CpuReading | undefined {
    if (!this.start) return undefined;
    const seconds = (performance.now() - this.start.at) / 1000;
    const cores = (jiffies: number) => Math.round((jiffies / TICKS_PER_SECOND / seconds) * 100) / 100;
    const server = processBusy(this.serverPid) - this.start.server;
    const bench = processBusy(process.pid) - this.start.bench;
    const database = Math.max(0, databaseBusy() - this.start.database);
    const machine = machineBusy() - this.start.machine;
    return {
      server: cores(server),
      bench: cores(bench),
      database: cores(database),
      other: cores(Math.max(0, machine - server - bench - database)),
    };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits (up to `maxMs`) until other processes use less than `threshold` cores over half a
 * second, so a measurement does not start in the middle of someone else's test run.
 * Returns the cores other processes used in the last window.
 */
export async function waitForQuiet(serverPid: number, maxMs: number, threshold = 0.15): Promise<number> {
  if (maxMs <= 0) return 0;
  const deadline = performance.now() + maxMs;
  let other = 0;
  do {
    const meter = new CpuMeter(serverPid);
    await sleep(500);
    other = meter.stop()?.other ?? 0;
    if (other < threshold) return other;
  } while (performance.now() < deadline);
  return other;
}
