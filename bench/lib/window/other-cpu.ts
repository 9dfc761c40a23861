import { readdirSync, readFileSync } from 'node:fs';

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

const TICKS_PER_SECOND = 100;

/** Busy jiffies of the whole machine (all cores), from the first line of /proc/stat. */
function machineBusy(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
}

interface ProcessTimes {
  ppid: number;
  /**
   * utime + stime + cutime + cstime: its own time and that of the children it reaped. A renderer
   * that ends moves its whole time into its parent's cutime, so the tree's sum stays complete.
   */
  total: number;
}

function processTimes(pid: number): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's closing parenthesis: state, ppid, ..., utime (14th field of the line).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    return { ppid: Number(fields[1]), total: utime! + stime! + cutime! + cstime! };
  } catch {
    return undefined; // ended meanwhile
  }
}

/** Jiffies of `root` and all its descendants now alive, each with its reaped children. */
function treeBusy(root: number): number {
  const all = new Map<number, ProcessTimes>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const times = processTimes(Number(name));
    if (times) all.set(Number(name), times);
  }
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
  private readonly start: { machine: number; tree: number; at: number } | undefined;

  constructor(private readonly root: number = process.pid) {
    try {
      this.start = { machine: machineBusy(), tree: treeBusy(root), at: performance.now() };
    } catch {
      this.start = undefined;
    }
  }

  stop(): OtherCpu | undefined {
    if (!this.start) return undefined;
    const seconds = (performance.now() - this.start.at) / 1000;
    const tree = treeBusy(this.root) - this.start.tree;
    const machine = machineBusy() - this.start.machine;
    const cores = (jiffies: number) => Math.round((jiffies / TICKS_PER_SECOND / seconds) * 100) / 100;
    return {
      other: cores(Math.max(0, machine - tree)),
      bench: cores(tree),
      seconds: Math.round(seconds * 10) / 10,
    };
  }
}
