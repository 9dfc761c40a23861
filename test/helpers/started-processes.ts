import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach } from 'vitest';
import { newDataDir, removeDataDir } from './backend.js';

/** What is needed to end a pim process a test started: spawnCli's and startCli's results both have it. */
export interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * For tests that run `pim start` (or other long-lived commands) on a data folder of their own: a
 * new folder before each test; after it, every tracked process is killed if it still runs and
 * waited for, and only then is the folder removed (a process must not outlive its folder).
 */
export function processesPerTest(): { readonly dataDir: string; track<T extends Running>(proc: T): T } {
  let dataDir = '';
  const processes: Running[] = [];
  beforeEach(async () => {
    dataDir = await newDataDir();
  });
  afterEach(async () => {
    for (const proc of processes.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
      await proc.exited;
    }
    await removeDataDir(dataDir);
  });
  return {
    get dataDir() {
      return dataDir;
    },
    track(proc) {
      processes.push(proc);
      return proc;
    },
  };
}
