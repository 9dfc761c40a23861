import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../db/file-system.js';

/**
 * Which long-running processes serve a data folder (`pim start`, `pim mcp`): one small file each
 * in `<data folder>/running/`, written when the process starts and removed when it ends. Commands
 * that must not run beside them ask here: `pim db move`, whose copy would miss their later writes,
 * and `pim setup`, whose switch of database they would not follow.
 * A process that crashed leaves its file behind: a file counts only while its process is alive and
 * is the same process (its start time, where /proc tells it, so that a reused pid is not mistaken).
 */

export type ProcessRole = 'start' | 'mcp';

export interface RunningProcess {
  pid: number;
  role: ProcessRole;
}

interface Entry extends RunningProcess {
  /** The process's start time in clock ticks since boot (Linux), when known. */
  startTicks?: number;
}

const folderOf = (dataDir: string) => join(dataDir, 'running');

/**
 * Makes the folder that marks the data folder served, the owner's only as everything in the data
 * folder; one an earlier version made readable by all (0755) is restricted too. Returns its path.
 */
export function runningFolder(dataDir: string): string {
  const folder = folderOf(dataDir);
  makeFolder(folder, 0o700);
  chmodSync(folder, 0o700);
  return folder;
}

/** Field 22 of /proc/<pid>/stat: when the process started; undefined without /proc. */
function startTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return undefined;
  }
}

function isAlive(entry: Entry): boolean {
  try {
    process.kill(entry.pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const ticks = startTicks(entry.pid);
  return entry.startTicks === undefined || ticks === undefined || ticks === entry.startTicks;
}

/** Registers this process as serving the data folder; the returned function (and exit) ends that. */
export function markRunning(dataDir: string, role: ProcessRole): () => void {
  const file = join(folderOf(dataDir), `${process.pid}.json`);
  const entry: Entry = { pid: process.pid, role, startTicks: startTicks(process.pid) };
  runningFolder(dataDir);
  writeFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  const release = () => {
    process.off('exit', release);
    rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}

/** The live processes serving the data folder, other than this one; stale files are removed. */
export function runningProcesses(dataDir: string): RunningProcess[] {
  let names: string[];
  try {
    names = readdirSync(folderOf(dataDir)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const running: RunningProcess[] = [];
  for (const name of names) {
    const file = join(folderOf(dataDir), name);
    let entry: Entry;
    try {
      entry = JSON.parse(readFileSync(file, 'utf8')) as Entry;
    } catch {
      continue;
    }
    if (entry.pid === process.pid) continue;
    if (isAlive(entry)) running.push({ pid: entry.pid, role: entry.role });
    else rmSync(file, { force: true });
  }
  return running;
}

/**
 * Refuses a command while `pim start` or `pim mcp` serves the data folder, in one line naming
 * them: `reason` says why (after "runs on this data folder"), `consequence` what was not done.
 */
export function refuseWhileRunning(dataDir: string, consequence: string, reason = ''): void {
  const running = runningProcesses(dataDir);
  if (running.length === 0) return;
  const list = running.map((p) => `pim ${p.role} (pid ${p.pid})`).join(', ');
  throw new Error(`${list} runs on this data folder${reason}: stop it first; ${consequence}`);
}
