/**
 * Whether an error means the database server cannot be reached (refused, reset, timed out, shut
 * down, too many connections): the request is answered 503 and may be retried, unlike an error
 * in the statement itself. PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P
 * (operator intervention: shutdown), 53300 (too many connections), and Node's socket errors.
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

// node-postgres says these without a code.
const CONNECTION_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'connection timeout',
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
