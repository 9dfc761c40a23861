import type { ErrorCodeName } from './error-codes.js';

/**
 * Domain errors carry a stable machine-readable code. Adapters map the code to
 * their own vocabulary (the catalogue in error-codes.ts gives each detail code its status; MCP maps them in mcp/),
 * so nothing here knows about transports.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'NO_WORKSPACE_OPEN'
  | 'PRECONDITION_FAILED'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_BUSY'
  | 'INTERNAL';

export class DomainError extends Error {
  /**
   * The input the error concerns, as a dotted path of the adapter's input (`shortTexts.0.value`),
   * when one input is at fault: the window shows the message under that field. REST and MCP
   * answer the sentence, which names it too.
   */
  field?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** A finer-grained code for clients, e.g. PRODUCT_NOT_FOUND. */
    readonly detailCode: ErrorCodeName,
    /** The underlying error, for the log only (never shown to a client). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    message: string,
    detailCode: ErrorCodeName = 'VALIDATION_FAILED',
    options?: { cause?: unknown },
  ) {
    super('VALIDATION_FAILED', message, detailCode, options);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(
    message = 'Authentication required: send a valid bearer token',
    detailCode: ErrorCodeName = 'UNAUTHORIZED',
  ) {
    super('UNAUTHORIZED', message, detailCode);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, detailCode: ErrorCodeName = 'FORBIDDEN') {
    super('FORBIDDEN', message, detailCode);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, detailCode: ErrorCodeName = 'NOT_FOUND') {
    super('NOT_FOUND', message, detailCode);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, detailCode: ErrorCodeName = 'CONFLICT') {
    super('CONFLICT', message, detailCode);
  }
}

/**
 * A change was made on the condition that the resource is still at a version the caller read
 * (optimistic locking, REST's If-Match), and it has changed since: nothing was changed.
 */
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super('PRECONDITION_FAILED', message, 'PRECONDITION_FAILED');
  }
}

export class NoWorkspaceError extends DomainError {
  constructor() {
    // Each adapter says how to open one (REST: POST /api/workspace/open).
    super('NO_WORKSPACE_OPEN', 'No workspace is open', 'NO_WORKSPACE_OPEN');
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_REQUESTS', message, 'TOO_MANY_FAILED_LOGINS');
  }
}

/** The service cannot take this request now (a bounded resource is full); try again shortly. */
export class ServiceBusyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    detailCode: ErrorCodeName = 'SERVICE_BUSY',
  ) {
    super('SERVICE_BUSY', message, detailCode);
  }
}

/**
 * Another process holds the database's lock longer than a statement waits for it (a long
 * transaction in another program, a backup tool): nothing was changed; try again.
 */
export class DatabaseBusyError extends ServiceBusyError {
  constructor(options?: { cause?: unknown }) {
    super(
      'The database is locked by another process; nothing was changed; try again shortly',
      5,
      'DATABASE_BUSY',
    );
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

/**
 * The database refuses writes (a read-only file or medium, a PostgreSQL standby): nothing was
 * changed, and retrying will not help until the database is made writable again.
 */
export class DatabaseReadOnlyError extends DomainError {
  constructor(options?: { cause?: unknown }) {
    super(
      'SERVICE_BUSY',
      'The database is read-only, so nothing was changed; reads still work',
      'DATABASE_READ_ONLY',
      options,
    );
  }
}

/** The shared database (PostgreSQL, team mode) does not answer: nothing was changed; try again. */
export class DatabaseUnavailableError extends ServiceBusyError {
  constructor(options?: { cause?: unknown }) {
    super('The database cannot be reached; try again shortly', 5, 'DATABASE_UNAVAILABLE');
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

/**
 * Names the input `error` concerns: `path` as the sentences write it (`allFeatures[2].values[0].value`)
 * becomes the dotted path of the input (`allFeatures.2.values.0.value`). Returns the error.
 */
export function atField<E extends DomainError>(error: E, path: string): E {
  error.field = path.replace(/\[(\d+)\]/g, '.$1');
  return error;
}
