import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ensureDataDir } from './data-dir.js';
import { restrictDatabaseFiles } from '../domain/workspaces/open-workspace.js';
import { runningFolder, runningProcesses } from './running-processes.js';

/** A second `pim start` on a data folder that one already serves. */
export class AlreadyRunningError extends Error {}

/**
 * Makes this process the one `pim start` of the data folder, until the returned function (or the
 * process's end) releases it. Two applications on one folder would share its machine id, its
 * window session and its settings, each acting on the other's changes half-seen; racing first
 * starts would both set the folder up.
 *
 * The claim is an exclusive lock SQLite holds on a small file of its own (`running/start.lock`):
 * the operating system's lock, taken atomically and dropped when the process ends however it ends,
 * so a crashed start never blocks the next one. (A pid file cannot be both: telling a stale file
 * from a fresh one and replacing it is a race of its own.)
 */
export function claimStart(dataDir: string): () => void {
  // The data folder is made as the application makes it, and what is in it the owner's only too.
  ensureDataDir(dataDir);
  const file = join(runningFolder(dataDir), 'start.lock');
  const lock = new Database(file, { timeout: 0 });
  restrictDatabaseFiles(file);
  try {
    // Exclusive locking mode keeps the lock of the first write until the connection closes.
    lock.pragma('locking_mode = EXCLUSIVE');
    // Nothing worth a journal is written: no journal file beside the lock.
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS claim (at TEXT); COMMIT');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    const holder = runningProcesses(dataDir).find((p) => p.role === 'start');
    throw new AlreadyRunningError(
      `pim is already running on this data folder${holder ? ` (pid ${holder.pid})` : ''}; stop it first, or start another with --data-dir`,
    );
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    lock.close();
  };
}
