/** SQLSTATEs after which PostgreSQL rolled the whole transaction back and running it again may succeed. */
const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

const ATTEMPTS = 3;

/** Whether PostgreSQL aborted the whole transaction (a savepoint cannot save it: run it again). */
export function isAbortedTransaction(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/**
 * Runs a whole transaction again when PostgreSQL aborted it for a deadlock with another one
 * (concurrent writers on several instances): the transaction changed nothing, so repeating it
 * is safe, and the client sees its answer rather than a 500. SQLite never raises these.
 */
export async function retryAbortedTransaction<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isAbortedTransaction(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
