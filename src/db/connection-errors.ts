/**
 * Whether an error means the database server cannot be reached (refused, reset, timed out, shut
 * down, too many connections, silent): the request is answered 503 and may be retried, unlike an
 * error in the statement itself. PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P
 * (operator intervention: shutdown), 53300 (too many connections), Node's socket errors, and a
 * statement the server did not answer within the query timeout (isQueryTimeout).
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (/^(08|57P)/.test(code) || code === '53300') return true;
      if (
        [
          'ECONNREFUSED',
          'ECONNRESET',
          'ETIMEDOUT',
          'EHOSTUNREACH',
          'ENOTFOUND',
          'EPIPE',
          'EAI_AGAIN',
        ].includes(code)
      )
        return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** node-postgres's error (no code) when the server sent nothing back within the query timeout. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * Whether the server left a statement unanswered for the whole query timeout (`query_timeout`).
 * From the client's side a silent server (frozen, or cut off without a reset: nothing is
 * refused, nothing answers) cannot be told from a slow one; pim's statements take far less
 * than the timeout (postgres.ts), so it counts as unreachable, as a refused connection does.
 */
export function isQueryTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === QUERY_READ_TIMEOUT;
}

// node-postgres says these without a code.
const CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'connection timeout',
  QUERY_READ_TIMEOUT,
];

/**
 * Whether an error means another connection holds the lock the statement needs, after the wait
 * the database allows (SQLite's busy_timeout; PostgreSQL's lock_timeout, where one is set): the
 * statement changed nothing and the same request may succeed shortly. SQLite's SQLITE_BUSY and
 * SQLITE_LOCKED (with their extended codes), PostgreSQL's 55P03 (lock not available).
 */
export function isLockTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === '55P03');
}

/**
 * Whether an error means the database refuses writes as such: SQLite's SQLITE_READONLY (with its
 * extended codes: a file that became read-only, a moved database, a read-only medium) and
 * PostgreSQL's 25006 (a read-only transaction: a standby, `default_transaction_read_only`). The
 * statement changed nothing; retrying will not help until someone changes the database's state.
 */
export function isReadOnlyDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_READONLY') || code === '25006');
}
