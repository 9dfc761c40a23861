/**
 * How long a write waits for a lock that another process or instance holds (another `pim`
 * process on a SQLite file, another instance's transaction or an administrator's on PostgreSQL)
 * before it gives up: 503 DATABASE_BUSY, nothing changed. SQLite waits for its write lock
 * asynchronously up to this deadline (sqlite-dialect.ts); PostgreSQL gets it as lock_timeout
 * (postgres.ts). Either way the event loop never waits, and other requests are answered meanwhile.
 */
export interface LockWait {
  /** How long a transaction may wait for a lock, in ms (on PostgreSQL: each lock it takes). */
  deadlineMs: number;
}

/** What SQLite's busy_timeout allowed before: 5 s, well within the 15 s query timeout of PostgreSQL. */
export const DEFAULT_LOCK_WAIT: LockWait = { deadlineMs: 5000 };

/** A lock wait from a number of ms (ApplicationOptions.lockWaitMs): a whole number, at least 1. */
export function lockWaitOf(ms: number | undefined): LockWait {
  if (ms === undefined) return DEFAULT_LOCK_WAIT;
  if (!Number.isFinite(ms) || ms < 1) throw new Error(`a lock wait of ${ms} ms: expected at least 1`);
  return { deadlineMs: Math.round(ms) };
}
