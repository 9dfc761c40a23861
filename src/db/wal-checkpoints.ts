import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * How often the checkpointing thread copies what the WAL holds into the database file. Under
 * sustained writes the WAL grows by about this much time's commits between checkpoints; idle, a
 * try finds nothing to copy and costs no I/O.
 */
export const CHECKPOINT_INTERVAL_MS = 100;

/**
 * The writer's own automatic checkpoint, after the commit that makes the WAL this long (pages of
 * 4 KB: 16 MB; SQLite's default is 1,000). It bounds the WAL (in practice, not as a hard cap:
 * docs/storage.md says how far it went): SQLite writes the WAL from its
 * beginning again only when a write transaction begins after every frame was copied, and under
 * sustained writes the writer keeps appending while the thread copies, so that moment may not come
 * by itself (measured: the WAL passed 100 MB). By then the thread has copied nearly every frame,
 * so this checkpoint copies few pages, once per 16 MB of WAL, where SQLite's default copied all of
 * them every 4 MB. When it finds the thread checkpointing, SQLite skips it and the next commit
 * tries again. Two alternatives measured worse (the WAL reached 40-117 MB under the same writes): a
 * thread that RESTARTs the WAL (taking the write lock) was starved by the writer, SQLite's locks do
 * not queue; a thread that hands the last copy over to the writer by a message reacts a checkpoint
 * late.
 */
export const WRITER_AUTOCHECKPOINT_PAGES = 4096;

/**
 * The thread's source: a connection of its own to the database, a PASSIVE checkpoint every
 * interval (it never waits for readers or writers and never calls the busy handler), with the
 * synchronous setting every pim connection has, so that a checkpoint syncs the WAL before it copies
 * and the database after, as the writer's automatic checkpoint did.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failing = '';
let pause = false;
const timer = setInterval(() => {
  // After a checkpoint that found the WAL at the writer's own threshold, one interval off: the
  // writer's checkpoint, skipped whenever it finds this one running, then finds the way clear.
  if (pause) {
    pause = false;
    return;
  }
  try {
    pause = checkpoint.get().log >= workerData.writerPages;
    failing = '';
  } catch (error) {
    const message = String((error && error.message) || error);
    // Once per run of the same failure, not every interval.
    if (message !== failing) parentPort.postMessage({ error: message });
    failing = message;
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'copy') {
    // After a large commit the writer left its checkpoint to this thread: copy now, then say so.
    try {
      checkpoint.get();
    } catch (error) {
      parentPort.postMessage({ error: String((error && error.message) || error) });
    }
    parentPort.postMessage({ copied: true });
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ ready: true });
`;

export interface WalCheckpoints {
  /** Stops the thread and closes its connection (before the database's other connections close). */
  stop(): Promise<void>;
}

/** What the thread of a writer connection does for `commitLarge` and `walCopyToAwait`. */
interface HandOver {
  /** Turns the writer's own checkpoint off until the thread has copied (`copyNow`'s reply). */
  hold(): void;
  copyNow(): void;
  /**
   * Once the WAL has passed WAL_WAIT_BYTES: when the copies asked of the thread are done (one is
   * asked if none runs); before that, undefined.
   */
  copying(): Promise<void> | undefined;
}

/**
 * The WAL's size from which a write waits (asynchronously) for the thread to copy it before it
 * begins: the WAL's bound, a hard one for writes through the dialect (at most this plus one
 * transaction). Large transactions back to back (a bulk load's batches) otherwise begin before the
 * thread has copied the one before, so the WAL never starts over and grows with every batch (68 MB
 * within 60 s of the benchmark's bulk load); and small writes back to back outran the thread on a
 * loaded machine (64 MB where the writer's own checkpoint aims at 16). Waiting lets the next
 * transaction write the WAL from its start. Four times the writer's own checkpoint: it seldom makes
 * anything wait.
 */
export const WAL_WAIT_BYTES = 4 * WRITER_AUTOCHECKPOINT_PAGES * 4096;

/**
 * Before a write transaction of `writer` begins: undefined at once, or, once the WAL file has passed
 * WAL_WAIT_BYTES, a promise that the thread has copied it (a copy asked now if none is running).
 */
export function walCopyToAwait(writer: Database.Database): Promise<void> | undefined {
  return handOvers.get(writer)?.copying();
}

const handOvers = new WeakMap<Database.Database, HandOver>();

function walBytes(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * Commits a large transaction (`commit`) of `writer` without the writer's own checkpoint, and has
 * the checkpoint thread copy it at once instead. SQLite's automatic checkpoint runs inside the
 * COMMIT once the WAL holds WRITER_AUTOCHECKPOINT_PAGES, and copies every frame the thread has not:
 * after an import's transaction (which the thread cannot copy while it is open) that was the whole
 * WAL, on the event loop, while nothing else was answered (a 100,000-product import: seconds at its
 * end; a bulk upsert's batch: up to 16 MB). The writer's checkpoint comes back once the thread has
 * copied, so that later small commits let the WAL start over as before. Without a thread (a
 * database opened without one), `commit` as it is.
 */
export async function commitLarge(writer: Database.Database, commit: () => Promise<void>): Promise<void> {
  const handOver = handOvers.get(writer);
  if (!handOver) return commit();
  handOver.hold();
  try {
    await commit();
  } finally {
    handOver.copyNow();
  }
}

/**
 * Checkpoints the WAL of the SQLite database `file` in a worker thread (issue 34): SQLite's
 * automatic checkpoint runs inside the commit that passes 1,000 pages, on the connection that
 * committed, so about one write in thirty (a POST writes some 30 pages) paid for copying the whole
 * WAL and two fsyncs on the event loop, and every request waited meanwhile. Now the thread copies,
 * and the writer (`writer`, the connection of `file` the process writes with) checkpoints only every
 * WRITER_AUTOCHECKPOINT_PAGES, copying what the thread has not yet. Durability is unchanged: a commit is as durable as
 * before (synchronous = NORMAL: in the WAL, which survives a killed process); a checkpoint only
 * moves committed pages into the database file.
 */
export async function startWalCheckpoints(
  writer: Database.Database,
  file: string,
  onError: (message: string) => void,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  writerPages = WRITER_AUTOCHECKPOINT_PAGES,
  waitBytes = WAL_WAIT_BYTES,
): Promise<WalCheckpoints> {
  writer.pragma(`wal_autocheckpoint = ${writerPages}`);
  // When the WAL starts over, its file is cut back to the writer's bound: the file's size then says
  // how much the WAL holds, which the wait before a write (walCopyToAwait) goes by.
  writer.pragma(`journal_size_limit = ${writerPages * 4096}`);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(SOURCE, {
    eval: true,
    // The source is CommonJS: not the process's own options (`--input-type=module` would make it ESM).
    execArgv: [],
    workerData: { file, driver, intervalMs, writerPages },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { ready?: boolean; error?: string }) => {
      if (message.ready) resolve();
      if (message.error) onError(message.error);
    });
    void exited.then(() => reject(new Error('the WAL checkpoint thread ended before it started')));
  });
  let stopped = false;
  // Copies asked of the thread and not yet done: meanwhile the writer does not checkpoint.
  let held = 0;
  let waiters: (() => void)[] = [];
  const giveBack = () => {
    if (!stopped) writer.pragma(`wal_autocheckpoint = ${writerPages}`);
    held = 0;
    for (const wake of waiters) wake();
    waiters = [];
  };
  worker.on('message', (message: { copied?: boolean }) => {
    if (message.copied && held > 0 && --held === 0) giveBack();
  });
  // Past the start, a thread that fails leaves the writer's own checkpoint to copy everything.
  worker.on('error', (error) => {
    onError(String(error));
    handOvers.delete(writer);
    giveBack();
  });
  handOvers.set(writer, {
    hold() {
      if (held++ === 0) writer.pragma('wal_autocheckpoint = 0');
    },
    copyNow() {
      worker.postMessage('copy');
    },
    copying() {
      if (walBytes(`${file}-wal`) < waitBytes) return undefined;
      // Past the bound with no copy asked (small writes back to back outran the thread): ask one.
      if (held === 0) {
        this.hold();
        this.copyNow();
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
  });
  // A thread the process does not wait for: a one-shot command ends without stopping it.
  worker.unref();
  return {
    async stop() {
      if (stopped) return;
      handOvers.delete(writer);
      if (held > 0) giveBack();
      stopped = true;
      // Kept alive until the thread has closed its connection: the caller awaits it.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
