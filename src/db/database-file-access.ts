import { accessSync, constants, statSync, type Stats } from 'node:fs';

/** Why pim may not open a database file (or its folder) for reading and writing. */
export type DatabaseFileProblem =
  | { kind: 'not-a-file' }
  | { kind: 'unreadable'; mode: string }
  | { kind: 'read-only'; mode: string }
  /** stat() or access() failed: `error` says why (EACCES on a folder above, EIO, ...). */
  | { kind: 'inaccessible'; error: unknown };

function modeOf(stats: Stats): string {
  return `mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}`;
}

function folderProblem(folder: string): DatabaseFileProblem | undefined {
  try {
    const stats = statSync(folder);
    if ((stats.mode & 0o200) === 0) return { kind: 'read-only', mode: `folder ${modeOf(stats)}` };
    accessSync(folder, constants.W_OK);
    return undefined;
  } catch (error) {
    return { kind: 'inaccessible', error };
  }
}

/**
 * What stands between pim and writing to an SQLite database `file`, or undefined when nothing does
 * or the file does not exist (the caller decides whether that is allowed). A file or folder its
 * owner made read-only counts as read-only even for root, to whom access() grants everything: pim
 * writes to its databases, and a mode someone chose is not ours to override. `folder` is checked
 * too when given: SQLite creates the -wal and -shm files beside the database.
 */
export function databaseFileProblem(file: string, folder?: string): DatabaseFileProblem | undefined {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { kind: 'inaccessible', error };
  }
  if (!stats.isFile()) return { kind: 'not-a-file' };
  if ((stats.mode & 0o400) === 0) return { kind: 'unreadable', mode: modeOf(stats) };
  if ((stats.mode & 0o200) === 0) return { kind: 'read-only', mode: modeOf(stats) };
  if (folder !== undefined) {
    const problem = folderProblem(folder);
    if (problem) return problem;
  }
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    return { kind: 'inaccessible', error };
  }
  return undefined;
}
