import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Another program holding a SQLite database's write lock: a worker thread with a connection of
 * its own (as `pim mcp`, the CLI or a backup tool would have), so that what the server does
 * meanwhile cannot depend on this thread's event loop. `held()` asks the holder itself whether
 * its transaction is still open, so a test can show that an answer came while the lock was held.
 */
export interface LockHolder {
  /** Whether the holder's transaction is still open (asked of the holder). */
  held(): Promise<boolean>;
  /** Ends the transaction: COMMIT (after writing nothing) and closes the connection. */
  release(): Promise<void>;
}

const HOLDER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage({ held: db.inTransaction });
parentPort.on('message', (message) => {
  if (message === 'held?') parentPort.postMessage({ held: db.inTransaction });
  if (message === 'release') {
    db.exec('COMMIT');
    db.close();
    parentPort.postMessage({ released: true });
    parentPort.close();
  }
});
`;

/** Takes the write lock of `file` (BEGIN IMMEDIATE) in a worker thread; resolves once it holds it. */
export async function holdWriteLock(file: string): Promise<LockHolder> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(HOLDER_SOURCE, { eval: true, workerData: { file, driver } });
  const ask = async (message: string): Promise<Record<string, unknown>> => {
    const answer = once(worker, 'message');
    worker.postMessage(message);
    return (await answer)[0] as Record<string, unknown>;
  };
  const [first] = (await once(worker, 'message')) as [{ held: boolean }];
  if (!first.held) throw new Error(`the holder could not lock ${file}`);
  return {
    held: async () => (await ask('held?')).held === true,
    async release() {
      await ask('release');
      await worker.terminate();
    },
  };
}
