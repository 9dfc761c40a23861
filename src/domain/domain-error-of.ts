import { isConnectionFailure } from '../db/connection-errors.js';
import { DatabaseUnavailableError, DomainError } from './errors.js';

/**
 * The domain error an adapter answers with: the error itself, or DATABASE_UNAVAILABLE (503)
 * when the database server could not be reached (team mode); undefined for anything else (a
 * 500). Every adapter's error mapping starts here, so a server outage reads the same on REST,
 * MCP and in the window.
 */
export function domainErrorOf(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (isConnectionFailure(error)) return new DatabaseUnavailableError({ cause: error });
  return undefined;
}
