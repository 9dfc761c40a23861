import type { Kysely } from 'kysely';
import { withSavepoint } from './savepoint.js';

/** The most writes one commit takes: the first of them waits for the last. */
const MAX_GROUP = 64;

interface Queued {
  work: (trx: Kysely<never>) => Promise<unknown>;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * Group commit for SQLite's one writer (issue 34, "How 3"): writes that arrive while another is
 * being written share its transaction, each in a savepoint of its own, and all are answered once
 * the shared COMMIT returned. A commit writes every page a write touched to the WAL (about 30 for a
 * POST: the product's row and indexes, the search index, the texts, the counter), and concurrent
 * writes touch many of the same pages (the ends of the product's indexes, the counter): ten
 * writes a commit cost half the CPU of ten commits (docs/performance.md, "2026-11-29").
 *
 * - A write that fails is rolled back to its savepoint and answered with its error; the others go on.
 * - Nothing is answered before the commit: a write's success means it is as durable as before. A
 *   commit that fails (or a transaction SQLite rolled back itself, which a savepoint's rollback then
 *   finds gone) fails every write of the group.
 * - The group begins as any write transaction does (BEGIN IMMEDIATE, waiting for another process's
 *   lock asynchronously, db/sqlite-dialect.ts); when that fails (DATABASE_BUSY), every write waiting
 *   fails with it, none written.
 * - Before committing, the group gives the event loop one turn: requests already received reach
 *   their write and join. So a lone write pays one turn; writes keep joining up to MAX_GROUP.
 */
class GroupCommit {
  readonly #queue: Queued[] = [];
  #running = false;

  constructor(private readonly db: Kysely<never>) {}

  run<T>(work: (trx: Kysely<never>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (result: unknown) => void, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) await this.#group();
    } finally {
      this.#running = false;
    }
  }

  async #group(): Promise<void> {
    const written: { item: Queued; result: unknown }[] = [];
    let begun = false;
    const now: { item?: Queued } = {};
    try {
      await this.db.transaction().execute(async (trx) => {
        begun = true;
        for (let count = 0; count < MAX_GROUP; count++) {
          if (this.#queue.length === 0) await new Promise((resolve) => setImmediate(resolve));
          const item = this.#queue.shift();
          if (!item) return;
          now.item = item;
          const outcome = await writeInSavepoint(trx, item);
          now.item = undefined;
          if ('result' in outcome) written.push({ item, result: outcome.result });
          else item.reject(outcome.error);
        }
      });
    } catch (error) {
      // The transaction failed as a whole: its writes are not committed.
      now.item?.reject(error);
      for (const { item } of written) item.reject(error);
      // It never began (the lock's deadline passed): every write waiting waited that long too.
      if (!begun) for (const item of this.#queue.splice(0)) item.reject(error);
      return;
    }
    for (const { item, result } of written) item.resolve(result);
  }
}

/**
 * One write in a savepoint: its own error when it failed and was rolled back; throws when the
 * rollback itself failed (the transaction is gone), which ends the group.
 */
async function writeInSavepoint(
  trx: Kysely<never>,
  item: Queued,
): Promise<{ result: unknown } | { error: unknown }> {
  let failure: { error: unknown } | undefined;
  try {
    return {
      result: await withSavepoint(trx, 'pim_write', async () => {
        try {
          return await item.work(trx);
        } catch (error) {
          failure = { error };
          throw error;
        }
      }),
    };
  } catch (error) {
    if (failure && failure.error === error) return failure;
    throw error;
  }
}

const groups = new WeakMap<object, GroupCommit>();

/**
 * Runs `work` as a write transaction on the SQLite database `db`, grouped with the writes that
 * arrive meanwhile (GroupCommit); `work` gets the shared transaction.
 */
export function groupedWrite<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const key = db.getExecutor().adapter;
  let group = groups.get(key);
  if (!group) {
    group = new GroupCommit(db as unknown as Kysely<never>);
    groups.set(key, group);
  }
  return group.run(work as unknown as (trx: Kysely<never>) => Promise<T>);
}
