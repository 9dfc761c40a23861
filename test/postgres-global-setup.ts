import { dropTestDatabases, PG_SERVER_URL, testRunId } from './helpers/backend.js';

/**
 * The postgres project's set-up: name this run (its workers inherit the name through the
 * environment), drop the test databases killed runs left behind, and this run's own at its end.
 * Fails the run at once when the server cannot be reached: CI must not skip the PostgreSQL tests.
 */
export default async function setup(): Promise<() => Promise<void>> {
  testRunId();
  try {
    await dropTestDatabases('stale');
  } catch (error) {
    throw new Error(
      `The postgres project needs PostgreSQL at ${PG_SERVER_URL} (PIM_TEST_PG_URL names another): ${String(error)}`,
      { cause: error },
    );
  }
  return () => dropTestDatabases('this-run');
}
