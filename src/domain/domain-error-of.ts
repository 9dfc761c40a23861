import { isConnectionFailure, isLockTimeout, isReadOnlyDatabase } from '../db/connection-errors.js';
import { DatabaseBusyError, DatabaseReadOnlyError, DatabaseUnavailableError, DomainError } from './errors.js';

/**
 * The domain error an adapter answers with: the error itself, or one of the database's states
 * as a 503: DATABASE_UNAVAILABLE when the server cannot be reached (team mode), DATABASE_BUSY
 * when another process held its lock too long, DATABASE_READ_ONLY when it refuses writes;
 * undefined for anything else (a 500). Every adapter's error mapping starts here, so these read
 * the same on REST, MCP and in the window. `unreachable`: the answer instead of
 * DATABASE_UNAVAILABLE where an operation names another one (opening a workspace: 400).
 */
export function domainErrorOf(
  error: unknown,
  unreachable?: (cause: unknown) => DomainError,
): DomainError | undefined {
  if (error instanceof DatabaseUnavailableError && unreachable) return unreachable(error.cause);
  if (error instanceof DomainError) return error;
  if (isConnectionFailure(error)) {
    return unreachable ? unreachable(error) : new DatabaseUnavailableError({ cause: error });
  }
  if (isLockTimeout(error)) return new DatabaseBusyError({ cause: error });
  if (isReadOnlyDatabase(error)) return new DatabaseReadOnlyError({ cause: error });
  return undefined;
}
