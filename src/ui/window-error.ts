/**
 * A failed request of the window, as the views get it: the server's sentence and code, and what
 * a translation needs. Apart from api.ts (which brings React's connection state along) so that
 * error-text.ts can be tested on its own.
 */

/** The code of a request that never got an answer (pim stopped, the network gone): status 0. */
export const UNREACHABLE = 'UNREACHABLE';

/** What a translation of the server's sentence needs: its values, and how long to wait (Retry-After). */
export interface ErrorDetails {
  field?: string;
  params?: Record<string, string | number>;
  retryAfterSeconds?: number;
}

export class WindowError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  get field(): string | undefined {
    return this.details.field;
  }
}
