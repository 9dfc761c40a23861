import { isConnectionFailure, isLockTimeout } from '../db/connection-errors.js';
import { DatabaseBusyError, DatabaseUnavailableError, DomainError } from './errors.js';

/**
 * The domain error an adapter answers with: the error itself, or DATABASE_UNAVAILABLE (503)
 * when the database server could not be reached (team mode), DATABASE_BUSY (503) when another
 * process held its lock too long; undefined for anything else (a 500). Every adapter's error mapping starts here, so a server outage reads the same on REST,
 * MCP and in the window.
 */
export function domainErrorOf(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (isConnectionFailure(error)) return new DatabaseUnavailableError({ cause: error });
  if (isLockTimeout(error)) return new DatabaseBusyError({ cause: error });
  return undefined;
}
