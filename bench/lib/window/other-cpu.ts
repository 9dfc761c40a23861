import { TICKS_PER_SECOND, allProcesses, databaseBusy, machineBusy } from '../proc-stat.js';

/**
 * The CPU that processes other than the bench's own used during the window rows: the machine's
 * busy time minus that of the bench's process tree (this process, the pim it started, Chromium and
 * its renderers, which playwright started). The load average cannot tell the two apart: it counts
 * the bench's own catalogue generation of the minute before, pim and Chromium as "load".
 */
export interface OtherCpu {
  /** Cores used by everything outside the bench's process tree (1 = one core busy all the time). */
  other: number;
  /** Cores used by the bench's tree: the runner, pim and Chromium. */
  bench: number;
  seconds: number;
}

/** Jiffies of `root` and all its descendants now alive, each with its reaped children. */
function treeBusy(root: number): number {
  const all = allProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of all) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let sum = 0;
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop()!;
    sum += all.get(pid)?.total ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return sum;
}

/**
 * Measures between construction and stop(). The difference of the tree's sums is the tree's CPU
 * in between: a process alive at the start and ended since left its whole time to its parent, and
 * its share before the start is subtracted with the start's sum. Undefined where /proc is missing.
 */
export class OtherCpuMeter {
  private readonly start: { machine: number; tree: number; database: number; at: number } | undefined;

  constructor(private readonly root: number = process.pid) {
    try {
      this.start = {
        machine: machineBusy(),
        tree: treeBusy(root),
        database: databaseBusy(),
        at: performance.now(),
      };
    } catch {
      this.start = undefined;
    }
  }

  stop(): OtherCpu | undefined {
    if (!this.start) return undefined;
    const seconds = (performance.now() - this.start.at) / 1000;
    const tree = treeBusy(this.root) - this.start.tree;
    const database = Math.max(0, databaseBusy() - this.start.database);
    const machine = machineBusy() - this.start.machine;
    const cores = (jiffies: number) => Math.round((jiffies / TICKS_PER_SECOND / seconds) * 100) / 100;
    return {
      // The database's processes serve pim in a PostgreSQL run: not a disturbance.
      other: cores(Math.max(0, machine - tree - database)),
      bench: cores(tree),
      seconds: Math.round(seconds * 10) / 10,
    };
  }
}
