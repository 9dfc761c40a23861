import { readdirSync, readFileSync } from 'node:fs';

/** Readings of /proc for the bench's CPU meters (Linux; the callers treat a throw as "no reading"). */

export const TICKS_PER_SECOND = 100;

/** Busy jiffies of the whole machine (all cores), from the first line of /proc/stat. */
export function machineBusy(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
}

export interface ProcessTimes {
  command: string;
  ppid: number;
  /** utime + stime: its own time. */
  own: number;
  /**
   * own + cutime + cstime: with the children it reaped. A renderer that ends moves its whole time
   * into its parent's cutime, so a tree's sum stays complete.
   */
  total: number;
}

/** A process's times in jiffies; undefined when it has ended. */
export function processTimes(pid: number): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // After the command's closing parenthesis: state, ppid, ..., utime (14th field of the line).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    return {
      command,
      ppid: Number(fields[1]),
      own: utime! + stime!,
      total: utime! + stime! + cutime! + cstime!,
    };
  } catch {
    return undefined;
  }
}

/** Every process now alive. */
export function allProcesses(): Map<number, ProcessTimes> {
  const all = new Map<number, ProcessTimes>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const times = processTimes(Number(name));
    if (times) all.set(Number(name), times);
  }
  return all;
}

/**
 * Own jiffies of the PostgreSQL server's processes (the postmaster and its backends, all named
 * `postgres`). In a PostgreSQL run they work for pim, so they are the database's share, not a
 * disturbance. A backend that ends takes its time with it, so a reading can only undercount.
 */
export function databaseBusy(all: Map<number, ProcessTimes> = allProcesses()): number {
  let sum = 0;
  for (const times of all.values()) if (times.command === 'postgres') sum += times.own;
  return sum;
}
