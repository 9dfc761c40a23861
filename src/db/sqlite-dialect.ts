import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import { isLockTimeout } from './connection-errors.js';
import type { LockWait } from './lock-wait.js';
import { commitLarge, walCopyToAwait } from './wal-checkpoints.js';

/**
 * The busy_timeout of a connection that waits for the write lock asynchronously (LockWait): long
 * enough for a commit in progress elsewhere, short enough never to stall the event loop.
 */
export const LOCK_WAIT_BUSY_TIMEOUT_MS = 5;

// A failed try without waiting costs microseconds; 25 ms apart at most, a waiting write answers
// within about 40 ms after the lock is free (jitter included).
const FIRST_DELAY_MS = 2;
const MAX_DELAY_MS = 25;

/**
 * Kysely's SQLite driver begins every transaction with a plain BEGIN, which takes SQLite's write
 * lock only at the first write. A transaction that read first (a product must exist before it
 * changes) then cannot take the lock once another process (`pim mcp`, the CLI) has committed
 * meanwhile: SQLite answers SQLITE_BUSY at once, with no waiting, and the request failed with 500.
 * BEGIN IMMEDIATE takes the lock at the start, before the transaction did anything, so waiting
 * for it and trying again is always safe: nothing of the transaction ran yet. Transactions marked
 * read only (the group tree's consistent reads) keep the plain BEGIN: they never wait for a writer.
 *
 * With a LockWait, the wait for that lock never happens inside SQLite (better-sqlite3 is
 * synchronous: a wait there stops the whole server, reads included, for up to busy_timeout) but
 * as tries of BEGIN IMMEDIATE repeated asynchronously with backoff until the deadline; then the
 * lock error goes up (503 DATABASE_BUSY).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #raw: Database.Database | undefined;
  readonly #lockWait: LockWait | undefined;
  /** Transactions of this connection waiting for the lock now: the next ones do not block at all. */
  #waiting = 0;

  constructor(config: SqliteDialectConfig, raw?: Database.Database, lockWait?: LockWait) {
    super(config);
    this.#raw = raw;
    this.#lockWait = lockWait;
  }

  /**
   * The connection, wrapped so that work holding it for long gives the event loop a turn between
   * its statements (TurnGivingConnection).
   */
  override async acquireConnection(): Promise<DatabaseConnection> {
    return new TurnGivingConnection(await super.acquireConnection());
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    if (settings?.accessMode === 'read only') {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      return;
    }
    // A large commit's copy still running with the WAL grown past its bound: this write starts once
    // it is done, so that it can write the WAL from its start again (walCopyToAwait).
    const copying = this.#raw && walCopyToAwait(this.#raw);
    if (copying) await copying;
    if (!this.#raw || !this.#lockWait) {
      // Waits inside SQLite (busy_timeout, 5 s): the system database, whose writes are short and rare.
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      return;
    }
    await this.#beginWaitingAsynchronously(this.#raw, this.#lockWait.deadlineMs);
  }

  /**
   * A large transaction's commit leaves the WAL's copy to the checkpoint thread (commitLarge):
   * SQLite's own checkpoint inside it would copy the whole transaction on the event loop.
   */
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#raw && connection instanceof TurnGivingConnection && connection.isLarge())
      return commitLarge(this.#raw, () => super.commitTransaction(connection));
    return super.commitTransaction(connection);
  }

  /**
   * BEGIN IMMEDIATE, and while another process holds the lock, again after a pause in which the
   * connection is released: this process's reads and other work go on meanwhile. The first try
   * may wait the connection's few ms of busy_timeout (a commit elsewhere ends that fast); the
   * later ones, and every try while another transaction here already waits, do not wait at all,
   * so that many waiting writes never add up to a stalled event loop.
   */
  async #beginWaitingAsynchronously(raw: Database.Database, deadlineMs: number): Promise<void> {
    const started = performance.now();
    let error: unknown;
    try {
      return this.#waiting === 0 ? beginImmediate(raw) : beginImmediateWithoutWaiting(raw);
    } catch (caught) {
      if (!isLockTimeout(caught)) throw caught;
      error = caught;
    }
    this.#waiting++;
    try {
      for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
        const left = deadlineMs - (performance.now() - started);
        // The caller holds the connection when this throws: Kysely releases it.
        if (left <= 0) throw error;
        await this.releaseConnection();
        // Jittered, so that writers of several processes polling together drift apart.
        await pause(Math.min(left, delay * (0.5 + Math.random())));
        await this.acquireConnection();
        try {
          return beginImmediateWithoutWaiting(raw);
        } catch (caught) {
          if (!isLockTimeout(caught)) throw caught;
          error = caught;
        }
      }
    } finally {
      this.#waiting--;
    }
  }
}

/**
 * better-sqlite3 is synchronous, and a transaction's statements follow each other through
 * promises that are already resolved: a long transaction (an import's batch of 500 products,
 * about 0.4 s) kept the event loop to itself, and nothing else was answered meanwhile, not even
 * reads that use the read-only connection. Before a statement, once the connection has been held
 * for more than TURN_SLICE_MS since it was acquired or last gave way, it gives the event loop one
 * turn (setImmediate: pending I/O, new requests, is handled first). The transaction keeps the
 * connection and SQLite's write lock meanwhile; Kysely runs its queries one at a time, so no
 * statement of this connection runs during the turn.
 */
class TurnGivingConnection implements DatabaseConnection {
  #since = performance.now();
  #rows = 0;

  constructor(private readonly inner: DatabaseConnection) {}

  /**
   * Whether the work on this connection (a transaction: one acquisition) was large: its pages are
   * then many, and the writer's checkpoint would copy them all. Counted in the rows its statements
   * changed (SQLite's count, triggers' rows not included), which cost nothing to read: a wall-clock
   * bound would depend on the machine's load, a count of statements would take a group commit of
   * small writes for a large one.
   */
  isLarge(): boolean {
    return this.#rows >= LARGE_TRANSACTION_ROWS;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (performance.now() - this.#since > TURN_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.#since = performance.now();
    }
    const result = await this.inner.executeQuery<R>(query);
    if (result.numAffectedRows !== undefined) this.#rows += Number(result.numAffectedRows);
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * How long a connection's holder may keep the event loop before a statement gives it a turn (as
 * domain/fair-turns.ts's, which says what it costs and gives).
 */
export const TURN_SLICE_MS = 10;

/**
 * A transaction that changed this many rows commits without the writer's own checkpoint
 * (commitLarge). A single write changes a handful, a group commit of 64 POSTs a few hundred; a bulk
 * upsert's batch of 1,000 full products about 16,000, an import's batches as many each.
 */
export const LARGE_TRANSACTION_ROWS = 2000;

function beginImmediate(raw: Database.Database): void {
  raw.exec('BEGIN IMMEDIATE');
}

/** BEGIN IMMEDIATE that fails at once when the lock is taken, then restores the busy_timeout. */
function beginImmediateWithoutWaiting(raw: Database.Database): void {
  const timeout = raw.pragma('busy_timeout', { simple: true }) as number;
  raw.pragma('busy_timeout = 0');
  try {
    raw.exec('BEGIN IMMEDIATE');
  } finally {
    raw.pragma(`busy_timeout = ${timeout}`);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface PimSqliteDialectConfig extends SqliteDialectConfig {
  /** The raw connection behind `database`: the asynchronous lock wait needs it. */
  raw?: Database.Database;
  /** Set: wait for the write lock asynchronously (LockWait); unset: inside SQLite (busy_timeout). */
  lockWait?: LockWait;
}

export class PimSqliteDialect extends SqliteDialect {
  readonly #config: PimSqliteDialectConfig;

  constructor(config: PimSqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    const { raw, lockWait, ...config } = this.#config;
    return new ImmediateSqliteDriver(config, raw, lockWait);
  }
}
